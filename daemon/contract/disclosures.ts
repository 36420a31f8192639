// The canonical disclosure texts, in English and Arabic (docs/reports.md, "Disclosures"). A client
// statement always ends with them; the assistant's disclosure route (daemon/assistant) answers the same words.

export const DISCLOSURES = {
  investment_risk: {
    en:
      'Investing in securities involves risk, including the loss of the capital invested. Past performance does ' +
      'not indicate future results. This statement is for information only; it is not investment advice and not ' +
      'a recommendation to buy, sell or hold any security.',
    ar:
      'ينطوي الاستثمار في الأوراق المالية على مخاطر، منها خسارة رأس المال المستثمر. الأداء السابق لا يدل على ' +
      'النتائج المستقبلية. هذا الكشف للعلم فقط، وليس نصيحة استثمارية ولا توصية بشراء أي ورقة مالية أو بيعها أو ' +
      'الاحتفاظ بها.',
  },
  ai_interaction: {
    en:
      'You are interacting with an automated assistant, not a person. It gives factual information about terms, ' +
      'orders and errors only; it does not give investment advice, recommendations or opinions on any security. ' +
      'For advice, contact your broker.',
    ar:
      'أنت تتعامل مع مساعد آلي وليس مع شخص. يقدم المساعد معلومات وقائعية عن المصطلحات والأوامر والأخطاء فقط، ولا ' +
      'يقدم نصيحة استثمارية أو توصيات أو آراء بشأن أي ورقة مالية. للحصول على المشورة تواصل مع شركة السمسرة.',
  },
  sandbox: {
    en: 'Produced by a sandbox: every price, trade and balance in it is simulated.',
    ar: 'صادر عن بيئة تجريبية: جميع الأسعار والعمليات والأرصدة الواردة فيه محاكاة.',
  },
} as const;

/** The broker-of-record line: its name and its Financial Regulatory Authority licence. */
export function licenceLine(
  locale: 'en' | 'ar',
  broker: { name: string; name_ar: string; fra_license_no: string },
): string {
  return locale === 'ar'
    ? `${broker.name_ar} مرخص من الهيئة العامة للرقابة المالية، ترخيص رقم ${broker.fra_license_no}.`
    : `${broker.name} is licensed by the Financial Regulatory Authority (FRA), licence no. ${broker.fra_license_no}.`;
}
