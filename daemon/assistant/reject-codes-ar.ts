// Arabic cause and remedy of every order reject code (the English ones: fixtures/reject-codes.json,
// read by daemon/trading/reject-codes.ts). The same facts in the same order, in Modern Standard
// Arabic; routes, field names and values stay as the API spells them. A test checks that every code
// of the registry has its entry here and that each text passes the firewall.
export const REJECT_CODES_AR: Readonly<Record<string, { cause: string; remedy: string }>> = {
  INVALID_SIDE: {
    cause: 'حقل side غير موجود أو ليس إحدى القيمتين buy أو sell.',
    remedy: 'أرسل side بالقيمة buy أو sell.',
  },
  INVALID_TYPE: {
    cause: 'حقل type غير موجود أو ليس إحدى القيمتين market أو limit.',
    remedy: 'أرسل type بالقيمة market أو limit.',
  },
  INVALID_QTY: {
    cause: 'الكمية غير موجودة، أو ليست عددا صحيحا، أو ليست أكبر من صفر، أو تتجاوز حد 1,000,000,000 سهم.',
    remedy: 'أرسل عددا صحيحا من الأسهم أكبر من صفر.',
  },
  INVALID_PRICE: {
    cause:
      'أمر محدد السعر (limit) بلا قيمة موجبة صحيحة في limit_price_micros، أو أمر بسعر السوق (market) يحمل هذه القيمة.',
    remedy: 'أرسل limit_price_micros بالميكرو كعدد صحيح مع أوامر limit وحدها.',
  },
  INVALID_TIME_IN_FORCE: {
    cause: 'قيمة time_in_force ليست إحدى القيم day أو gtc أو ioc أو fok.',
    remedy: 'أرسل day أو gtc أو ioc أو fok، أو احذف الحقل لتكون القيمة day.',
  },
  UNKNOWN_SYMBOL: {
    cause: 'الرمز غير موجود في دليل الأدوات المالية.',
    remedy: 'اطلع على الدليل عبر GET /v1/instruments واستخدم أحد رموزه.',
  },
  TICK_VIOLATION: {
    cause:
      'السعر المحدد ليس من مضاعفات وحدة التغير السعري: 0.01 جنيه للأسعار من 2 جنيه فما فوق، و0.001 جنيه لما دونها.',
    remedy: 'قرّب السعر المحدد إلى شبكة وحدة التغير المناسبة لمستواه.',
  },
  PRICE_BAND_EXCEEDED: {
    cause: 'السعر المحدد خارج نطاق 20% صعودا أو هبوطا حول السعر المرجعي (سعر الإغلاق السابق).',
    remedy: 'اطلع على النطاق عبر GET /v1/instruments/{symbol}/quote وأرسل سعرا داخله.',
  },
  INVESTOR_NOT_APPROVED: {
    cause: 'المعرف يشير إلى طلب اعرف عميلك (KYC) لم يصدر له رقم مستثمر معتمد بعد.',
    remedy: 'أكمل إجراءات اعرف عميلك واستخدم investor_id الصادر عند الاعتماد.',
  },
  INVESTOR_CLOSED: {
    cause: 'الحساب مغلق ومتاح للاطلاع فقط.',
    remedy: 'تواصل مع شركة السمسرة المسجل لديها الحساب.',
  },
  SUITABILITY_REQUIRED: {
    cause: 'استبيان الملاءمة غير مسجل، وتداول الأسهم يتطلبه.',
    remedy: 'سجل الاستبيان عبر PUT /v1/investors/{id}/suitability.',
  },
  RISK_ACK_REQUIRED: {
    cause: 'لم يتم الإقرار بإفصاح المخاطر، وتداول الأسهم يتطلبه.',
    remedy: 'أرسل risk_acknowledged بالقيمة true عبر PUT /v1/investors/{id}/suitability.',
  },
  INVESTOR_RESTRICTED: {
    cause: 'الحساب مقيد: يمكن بيع الأرصدة القائمة دون فتح مراكز جديدة.',
    remedy: 'تواصل مع شركة السمسرة المسجل لديها الحساب بشأن القيد.',
  },
  SHARIAH_RESTRICTED: {
    cause: 'اختار المستثمر التعامل في الأدوات المتوافقة مع الشريعة وحدها، وهذه الأداة غير مصنفة متوافقة مع الشريعة.',
    remedy: 'هذا الاختيار مسجل في استبيان الملاءمة، والأدوات تحمل الحقل shariah_compliant في الدليل.',
  },
  INSTRUMENT_HALTED: {
    cause: 'أوقف التداول على هذه الأداة.',
    remedy: 'اطلع على الحقل halted عبر GET /v1/instruments/{symbol}/quote؛ تقبل الأوامر من جديد عند رفع الإيقاف.',
  },
  INSTRUMENT_NOT_ORDERABLE: {
    cause: 'السندات والصكوك لا تقبل أوامرها عبر /v1/orders في هذا الإصدار.',
    remedy: 'الأسهم وحدها تقبل أوامرها في هذا الإصدار.',
  },
  MARKET_CLOSED: {
    cause: 'وصل أمر ioc أو fok خارج جلسة التداول، وهذان النوعان لا يوضعان في قائمة الانتظار.',
    remedy:
      'أرسله أثناء الجلسة (من الأحد إلى الخميس، 10:00-14:30 بتوقيت القاهرة)، أو استخدم day أو gtc اللذين ' +
      'ينتظران افتتاح الجلسة التالية.',
  },
  INSUFFICIENT_SETTLED_CASH: {
    cause:
      'النقد المسوى لم يغط مبلغ الحجز: الكمية مضروبة في السعر المحدد (الحد الأعلى للنطاق في أمر السوق) مضافا ' +
      'إليه الحد الأقصى للرسوم.',
    remedy: 'الأرصدة متاحة عبر GET /v1/investors/{id}/balances؛ الإيداعات والتسويات (T+2) تزيد النقد المسوى.',
  },
  INSUFFICIENT_SETTLED_SECURITIES: {
    cause: 'الأسهم المسواة لم تغط كمية البيع؛ الأسهم المشتراة خلال آخر يومي عمل غير مسواة بعد.',
    remedy: 'الأرصدة متاحة عبر GET /v1/investors/{id}/balances؛ تسوى الأسهم المشتراة في T+2.',
  },
  CLIENT_ORDER_ID_EXISTS: {
    cause: 'سبق أن استخدمت الجهة هذا client_order_id، وهو فريد على الدوام.',
    remedy: 'أرسل client_order_id جديدا، أو اطلع على الأمر القائم.',
  },
  INSUFFICIENT_BUYING_POWER: {
    cause:
      'عند التنفيذ لم يغط النقد المحجوز للأمر قيمة التنفيذ ورسومه (تحرك السعر فوق المبلغ المحجوز، كتنفيذ أمر ' +
      'سوق لاحقا في جلسة جديدة)، فرفضت البورصة باقي الأمر؛ وتبقى عمليات التنفيذ السابقة قائمة.',
    remedy: 'عمليات التنفيذ ورسومها مبينة في إشعار التنفيذ؛ الأمر الجديد يحجز من جديد من النقد المسوى.',
  },
  IOC_REMAINDER_CANCELED: {
    cause:
      'نفذ أمر التنفيذ الفوري أو الإلغاء (ioc) ما كان قابلا للتنفيذ عند وصوله وألغي الباقي؛ أوامر ioc لا تبقى قائمة.',
    remedy: 'يبين filled_qty الكمية المنفذة؛ أوامر day وgtc تبقى قائمة حتى يبلغ السعر حدها.',
  },
  FOK_NOT_FILLED: {
    cause: 'أمر التنفيذ الكامل أو الإلغاء (fok) لم يكن قابلا للتنفيذ بكامل كميته عند وصوله، فلم ينفذ منه شيء.',
    remedy: 'لم ينفذ شيء وأفرج عن الحجز؛ أوامر day وgtc تبقى قائمة حتى يبلغ السعر حدها.',
  },
  DESK_NOT_EXECUTED: {
    cause: 'أمر ioc أو fok كان لدى مكتب التداول ولم ينفذ قبل إغلاق الجلسة.',
    remedy: 'أفرج عن الحجز؛ يتولى مكتب التداول لدى شركة السمسرة الأوامر ما دام التنفيذ الآلي متوقفا.',
  },
  CANCELED_BY_CLIENT: {
    cause: 'ألغى العميل الأمر (DELETE /v1/orders/{id})؛ وأي تنفيذ تم قبل سريان الإلغاء يبقى قائما.',
    remedy: 'يبين filled_qty الكمية المنفذة قبل الإلغاء.',
  },
  DEALER_REJECTED: {
    cause: 'رفض مكتب التداول لدى شركة السمسرة الأمر.',
    remedy: 'تواصل مع شركة السمسرة المسجل لديها الحساب لمعرفة السبب.',
  },
  COMPLIANCE_REVIEW: {
    cause: 'رفض مكتب التداول لدى شركة السمسرة الأمر لحين مراجعة الالتزام للحساب.',
    remedy: 'تواصل مع شركة السمسرة المسجل لديها الحساب.',
  },
  PRICE_AWAY_FROM_MARKET: {
    cause: 'رفض مكتب التداول الأمر لأن سعره المحدد بعيد عن سعر السوق الحالي.',
    remedy: 'السعر الحالي والنطاق متاحان عبر GET /v1/instruments/{symbol}/quote.',
  },
  DUPLICATE_ORDER_SUSPECTED: {
    cause: 'رفض مكتب التداول الأمر لاحتمال أن يكون تكرارا لأمر آخر في الحساب.',
    remedy: 'الأوامر القائمة متاحة عبر GET /v1/orders?status=open، ويمنع client_order_id التكرار غير المقصود.',
  },
};

/** A reject code's Arabic cause and remedy, or null when it has none (then the code is named in Arabic around the
 * English text). */
export function rejectCodeAr(code: string): { cause: string; remedy: string } | null {
  return Object.hasOwn(REJECT_CODES_AR, code) ? REJECT_CODES_AR[code] : null;
}
