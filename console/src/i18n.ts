// English and Arabic. Arabic sets dir="rtl" on the document; the layout uses logical CSS properties
// so it mirrors. The choice is kept in localStorage.
import { createContext, useContext } from 'react';

export type Lang = 'en' | 'ar';

const EN = {
  title: 'svc console', signIn: 'Sign in with a passkey', signOut: 'Sign out', enrolTitle: 'Register your passkey',
  enrolIntro: 'This one-time link registers a passkey for your identity, then signs you in.', enrol: 'Register passkey',
  signInIntro: 'Operators sign in with a passkey. No passkey yet? Run {command} and open the link.',
  queue: 'Order queue', funding: 'Funding', kyc: 'KYC referrals', blotter: 'Blotter', book: 'Order book', eod: 'End of day',
  language: 'العربية', loading: 'Loading…', empty: 'Nothing here.', working: 'Working…', refreshed: 'Updated',
  execute: 'Execute', reject: 'Reject', approve: 'Approve', clear: 'Clear', decline: 'Decline', reason: 'Reason', price: 'Price (EGP)',
  qty: 'Qty', side: 'Side', symbol: 'Symbol', investor: 'Investor', account: 'Account', band: 'Band', tape: 'Tape', limit: 'Limit',
  amount: 'Amount', direction: 'Direction', state: 'State', created: 'Created', time: 'Time', net: 'Net', fees: 'Fees', show: 'Show',
  date: 'Date', front: 'Front', back: 'Back', images: 'ID images', bids: 'Bids', asks: 'Asks', orders: 'Orders', autoFill: 'Auto-fill',
  done: 'Done', cancel: 'Cancel', stepUp: 'Confirm with your passkey', noScreens: 'This identity holds no grant the console has a screen for yet.',
  on: 'on (orders go to the exchange)', off: 'off (orders wait here)', signedInAs: 'Signed in as', trades: 'Trades', cash: 'Cash movements', obligations: 'Settlement obligations', application: 'Application',
  // ops persona
  actions: 'Proposed actions', audit: 'Audit log', access: 'Access reviews', sessions: 'Sessions', breaks: 'Reconciliation breaks', alerts: 'Surveillance alerts', complaints: 'Complaints',
  maker: 'Maker', checker: 'Checker', decision: 'Decision', expires: 'expires', otherChecker: 'Another identity with the approve grant decides this proposal.',
  verify: 'Verify the chain', chainOk: 'Chain intact', chainBroken: 'Chain broken', actor: 'Actor', action: 'Action', subject: 'Subject', detail: 'Detail',
  identity: 'Identity', grant: 'Grant', scope: 'Scope', certify: 'Certify', revoke: 'Revoke', openReview: 'Open a review campaign', snapshot: 'Who holds what',
  roles: 'Roles', grants: 'Grants', lastUsed: 'Last used', revoked: 'revoked', lastSeen: 'Last seen', thisSession: 'this session', active: 'active',
  kind: 'Kind', asset: 'Asset', ledger: 'Ledger', external: 'Statement', difference: 'Difference', acknowledge: 'Acknowledge', accept: 'Accept',
  escalate: 'Escalate', close: 'Close', complaint: 'Complaint', due: 'Due', overdue: 'overdue', move: 'Move',
  note: 'Note (optional)', noteRequired: 'Note (required)', result: 'Result', entries: 'entries',
  tenant: 'Tenant', seq: 'seq', egp: 'EGP', itemsOpen: '{open} of {total} items open', openedBy: 'opened by {who}',
  screensLabel: 'Screens', comma: ', ', category: 'Category', channel: 'Channel', rule: 'Rule', evidence: 'Evidence', orderIds: 'Orders',
  ipTitle: 'Open the console on localhost', ipIntro: 'This page is open on {host}, an IP address. Passkeys need a name for the site, so they cannot be registered or used here. Open the same page on localhost:',
  ipOther: 'Open it on a host name that points to this daemon (localhost on this machine).',
  order: 'Order', placed: 'Placed', tif: 'Time in force', totals: 'Totals by type',
  pendingFills: 'Fills pending', broker: 'Broker (net)', perInvestor: 'Per investor', buys: 'Buys', sells: 'Sells',
};

const AR: typeof EN = {
  title: 'وحدة تحكم svc', signIn: 'تسجيل الدخول بمفتاح المرور', signOut: 'تسجيل الخروج', enrolTitle: 'سجّل مفتاح المرور',
  enrolIntro: 'يسجّل هذا الرابط لمرة واحدة مفتاح مرور لهويتك ثم يسجّل دخولك.', enrol: 'تسجيل مفتاح المرور',
  signInIntro: 'يسجّل المشغّلون الدخول بمفتاح مرور. لا تملك مفتاحًا؟ نفّذ {command} وافتح الرابط.',
  queue: 'طابور الأوامر', funding: 'التمويل', kyc: 'إحالات اعرف عميلك', blotter: 'سجل التنفيذ', book: 'دفتر الأوامر', eod: 'نهاية اليوم',
  language: 'English', loading: 'جارٍ التحميل…', empty: 'لا شيء هنا.', working: 'جارٍ التنفيذ…', refreshed: 'حُدّث',
  execute: 'تنفيذ', reject: 'رفض', approve: 'موافقة', clear: 'قبول', decline: 'رفض الطلب', reason: 'السبب', price: 'السعر (ج.م)',
  qty: 'الكمية', side: 'الاتجاه', symbol: 'الرمز', investor: 'المستثمر', account: 'الحساب', band: 'النطاق', tape: 'السعر الجاري', limit: 'الحد',
  amount: 'المبلغ', direction: 'النوع', state: 'الحالة', created: 'أُنشئ', time: 'الوقت', net: 'الصافي', fees: 'الرسوم', show: 'عرض',
  date: 'التاريخ', front: 'الوجه', back: 'الظهر', images: 'صور الهوية', bids: 'الشراء', asks: 'البيع', orders: 'الأوامر', autoFill: 'التنفيذ الآلي',
  done: 'تم', cancel: 'إلغاء', stepUp: 'أكّد بمفتاح المرور', noScreens: 'لا تملك هذه الهوية أي صلاحية لها شاشة في الوحدة بعد.',
  on: 'مفعّل (تذهب الأوامر إلى البورصة)', off: 'متوقف (تنتظر الأوامر هنا)', signedInAs: 'مسجّل باسم', trades: 'الصفقات', cash: 'الحركات النقدية', obligations: 'التزامات التسوية', application: 'الطلب',
  // ops persona
  actions: 'الإجراءات المقترحة', audit: 'سجل التدقيق', access: 'مراجعات الصلاحيات', sessions: 'الجلسات', breaks: 'فروق المطابقة', alerts: 'تنبيهات الرقابة', complaints: 'الشكاوى',
  maker: 'المُقترِح', checker: 'المُراجِع', decision: 'القرار', expires: 'ينتهي', otherChecker: 'تقرّر هذا الاقتراح هويةٌ أخرى تملك صلاحية الموافقة.',
  verify: 'تحقّق من السلسلة', chainOk: 'السلسلة سليمة', chainBroken: 'السلسلة مكسورة', actor: 'المنفّذ', action: 'الإجراء', subject: 'الموضوع', detail: 'التفاصيل',
  identity: 'الهوية', grant: 'الصلاحية', scope: 'النطاق', certify: 'اعتماد', revoke: 'سحب', openReview: 'فتح حملة مراجعة', snapshot: 'من يملك ماذا',
  roles: 'الأدوار', grants: 'الصلاحيات', lastUsed: 'آخر استخدام', revoked: 'مسحوبة', lastSeen: 'آخر نشاط', thisSession: 'هذه الجلسة', active: 'نشطة',
  kind: 'النوع', asset: 'الأصل', ledger: 'الدفتر', external: 'الكشف', difference: 'الفرق', acknowledge: 'إقرار', accept: 'قبول الفرق',
  escalate: 'تصعيد', close: 'إغلاق', complaint: 'الشكوى', due: 'الموعد', overdue: 'متأخرة', move: 'نقل',
  note: 'ملاحظة (اختيارية)', noteRequired: 'ملاحظة (مطلوبة)', result: 'النتيجة', entries: 'قيود',
  tenant: 'المستأجر', seq: 'رقم القيد', egp: 'ج.م', itemsOpen: '{open} من {total} بندًا مفتوحًا', openedBy: 'فتحها {who}',
  screensLabel: 'الشاشات', comma: '، ', category: 'الفئة', channel: 'القناة', rule: 'القاعدة', evidence: 'الأدلة', orderIds: 'الأوامر',
  ipTitle: 'افتح الوحدة على localhost', ipIntro: 'هذه الصفحة مفتوحة على {host}، وهو عنوان IP. تحتاج مفاتيح المرور إلى اسم للموقع، فلا يمكن تسجيلها أو استخدامها هنا. افتح الصفحة نفسها على localhost:',
  ipOther: 'افتحها على اسم مضيف يشير إلى هذا الخادم (localhost على هذا الجهاز).',
  order: 'الأمر', placed: 'وقت الإدخال', tif: 'مدة السريان', totals: 'الإجماليات حسب النوع',
  pendingFills: 'تنفيذات معلقة', broker: 'الوسيط (الصافي)', perInvestor: 'لكل مستثمر', buys: 'المشتريات', sells: 'المبيعات',
};

export type Key = keyof typeof EN;
export const DICTS: Record<Lang, typeof EN> = { en: EN, ar: AR };

export function initialLang(): Lang {
  return localStorage.getItem('svc-console-lang') === 'ar' ? 'ar' : 'en';
}

/** Sets the document's language and direction, and remembers the choice. */
export function applyLang(lang: Lang): void {
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';
  localStorage.setItem('svc-console-lang', lang);
}

export const LangContext = createContext<{ lang: Lang; t: (k: Key) => string }>({ lang: 'en', t: (k) => EN[k] });
export const useT = () => useContext(LangContext);

/** The Arabic of the states the API answers (proposals, breaks, alerts, complaints, reviews, KYC); the
 *  API's own value is kept in English and shown as is when it is not listed here. */
const STATES_AR: Record<string, string> = {
  proposed: 'مقترح', approved: 'معتمد', rejected: 'مرفوض', expired: 'منتهي الصلاحية', open: 'مفتوح', closed: 'مغلق',
  acknowledged: 'تم الإقرار به', resolved: 'تمت تسويته', escalated: 'مصعد', received: 'مستلمة', investigating: 'قيد التحقيق',
  accepted: 'مقبول', adjusted: 'معدل بقيد', auto: 'تلقائيا', active: 'نشطة', revoked: 'ملغاة', pending: 'قيد الانتظار',
  screening_referred: 'محالة للمراجعة', certified: 'معتمد', certify: 'اعتماد', revoke: 'سحب',
  submitted: 'مقدَّم', declined: 'مرفوض',
};

/** The Arabic of the other values the API answers in English words and the page shows to a person:
 *  roles, sides and directions, break kinds, surveillance rules, complaint categories and channels,
 *  fee lines and cash activity types. Codes (ids, grants, reason codes, symbols) stay as they are. */
const VALUES_AR: Record<string, string> = {
  admin: 'مسؤول النظام', security: 'الأمن', approver: 'المعتمِد', dealer: 'المتعامل', compliance: 'الالتزام', auditor: 'المدقق',
  buy: 'شراء', sell: 'بيع', deposit: 'إيداع', withdrawal: 'سحب',
  position: 'مركز', cash: 'نقدية', missing: 'مفقود', duplicate: 'مكرر',
  wash_trade: 'تداول صوري', layering: 'طبقات أوامر وهمية', concentration: 'تركز',
  execution: 'التنفيذ', fees: 'الرسوم', statement: 'كشف الحساب', account: 'الحساب', service: 'الخدمة', other: 'أخرى',
  email: 'بريد إلكتروني', phone: 'هاتف', branch: 'فرع', app: 'التطبيق', letter: 'خطاب',
  commission: 'العمولة', egx: 'رسوم البورصة', mcdr: 'رسوم مصر للمقاصة', ipf: 'صندوق حماية المستثمر', fra: 'رسوم الرقابة المالية',
  stamp_duty: 'ضريبة الدمغة', total: 'الإجمالي', system: 'النظام', global: 'عام',
  day: 'يوم', gtc: 'حتى الإلغاء', ioc: 'فوري أو إلغاء', fok: 'تنفيذ كامل أو إلغاء',
  CSD: 'إيداع نقدي', CSW: 'سحب نقدي', FILL: 'قيمة الصفقات', FEE: 'الرسوم', TAX: 'الضرائب', DIV: 'توزيعات', INT: 'فوائد', JNLC: 'قيد نقدي', JNLS: 'قيد أسهم', SUB: 'اكتتاب في صندوق', RED: 'استرداد من صندوق',
};

/** The English names of the values the API answers as keys (fee lines, times in force, cash activity types); Arabic is in VALUES_AR. */
const VALUES_EN: Record<string, string> = {
  commission: 'Commission', egx: 'EGX fee', mcdr: 'MCDR fee', ipf: 'Investor Protection Fund', fra: 'FRA fee', stamp_duty: 'Stamp duty',
  fees: 'Fees', total: 'Total', day: 'Day', gtc: 'Good till cancelled', ioc: 'Immediate or cancel', fok: 'Fill or kill',
  CSD: 'Cash deposit', CSW: 'Cash withdrawal', FILL: 'Trade consideration', FEE: 'Fees', TAX: 'Taxes', DIV: 'Dividend', INT: 'Interest',
  JNLC: 'Cash journal', JNLS: 'Share journal', SUB: 'Fund subscription', RED: 'Fund redemption',
};

/** A state as the reader's language names it. */
export const stateIn = (lang: Lang, state: string): string => (lang === 'ar' ? STATES_AR[state] ?? VALUES_AR[state] ?? state : state);

/** Another value of the API (a role, side, kind, rule, category...) as the reader's language names it. */
export const valueIn = (lang: Lang, value: string): string => (lang === 'ar' ? VALUES_AR[value] ?? STATES_AR[value] ?? value : value);

/** A key the API answers (a fee line, a time in force, a cash activity type) as a label in the reader's language; unknown keys as they are. */
export const labelIn = (lang: Lang, key: string): string => (lang === 'ar' ? VALUES_AR[key] : VALUES_EN[key]) ?? key;

/** A message with {name} placeholders filled in. */
export const fill = (text: string, values: Record<string, string | number>): string => text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
