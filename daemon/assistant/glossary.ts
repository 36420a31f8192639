// The assistant's glossary: terms of the Egyptian market and of this API, each with an exact slug and a
// title and body in English and Arabic. Data only; every body passes the firewall (a test checks), so
// it states facts and never advises, ranks, compares, evaluates or predicts.

export interface GlossaryEntry {
  slug: string;
  title: { en: string; ar: string };
  body: { en: string; ar: string };
}

function g(slug: string, titleEn: string, titleAr: string, bodyEn: string, bodyAr: string): GlossaryEntry {
  return { slug, title: { en: titleEn, ar: titleAr }, body: { en: bodyEn, ar: bodyAr } };
}

export const GLOSSARY: readonly GlossaryEntry[] = [
  g(
    't-plus-2',
    'T+2 settlement',
    'التسوية في T+2',
    'Listed equities on the Egyptian Exchange settle two trading days after the trade date: the shares and the ' +
      'cash change hands at the open of that day.',
    'تتم تسوية الأسهم المقيدة في البورصة المصرية بعد يومي تداول من تاريخ التنفيذ، فتنتقل الأسهم والنقدية في ' +
      'بداية ذلك اليوم.',
  ),
  g(
    'price-band',
    'Price band',
    'الحدود السعرية',
    "A limit price must lie within plus or minus 20% of the instrument's reference price; an order outside the " +
      'band is refused with PRICE_BAND_EXCEEDED.',
    'يجب أن يقع سعر الأمر المحدد في نطاق 20% صعودا أو هبوطا حول السعر المرجعي للورقة، ويرفض الأمر خارج هذا ' +
      'النطاق برمز PRICE_BAND_EXCEEDED.',
  ),
  g(
    'tick-size',
    'Tick size',
    'وحدة تغير السعر',
    'Prices move in steps: EGP 0.01 for prices of EGP 2.00 and above, EGP 0.001 below. A limit price off the ' +
      'grid is refused with TICK_VIOLATION.',
    'تتحرك الأسعار بخطوات ثابتة: 0.01 جنيه للأسعار من 2 جنيه فأكثر، و0.001 جنيه لما دون ذلك. ويرفض السعر الذي ' +
      'لا يقع على هذه الخطوات برمز TICK_VIOLATION.',
  ),
  g(
    'market-order',
    'Market order',
    'أمر السوق',
    'An order with no price limit. In an open session it executes at once at the available price inside the ' +
      'band; the reservation holds the band ceiling and the unspent part is released.',
    'أمر بلا سعر محدد، ينفذ فورا أثناء الجلسة بالسعر المتاح داخل الحدود السعرية، ويحجز له الحد الأعلى للنطاق ' +
      'ثم يفرج عن الجزء غير المستخدم.',
  ),
  g(
    'limit-order',
    'Limit order',
    'الأمر المحدد بسعر',
    'An order with a price limit: a purchase executes at the limit or below it, a sale at the limit or above ' +
      'it. If the price has not reached the limit, the order rests.',
    'أمر بسعر محدد: ينفذ الشراء عند السعر المحدد أو دونه، وينفذ البيع عند السعر المحدد أو فوقه. وإذا لم يبلغ ' +
      'السعر الحد المحدد يبقى الأمر قائما.',
  ),
  g(
    'day-order',
    'Day order',
    'أمر اليوم',
    'The default time in force: the order rests until the session closes, then expires.',
    'مدة السريان الافتراضية: يبقى الأمر قائما حتى إغلاق الجلسة ثم تنتهي صلاحيته.',
  ),
  g(
    'gtc',
    'Good till cancelled (gtc)',
    'ساري حتى الإلغاء (gtc)',
    'A time in force under which the order persists across sessions and never expires by itself; it ends when ' +
      'it fills or is cancelled.',
    'مدة سريان يبقى فيها الأمر قائما عبر الجلسات ولا تنتهي صلاحيته تلقائيا، وينتهي بالتنفيذ الكامل أو الإلغاء.',
  ),
  g(
    'ioc',
    'Immediate or cancel (ioc)',
    'نفذ فورا أو ألغ (ioc)',
    'A time in force under which the order executes what it can at once and the remainder is cancelled; it ' +
      'never rests.',
    'مدة سريان ينفذ فيها الأمر ما يمكن تنفيذه فورا ويلغى الباقي، ولا يبقى قائما.',
  ),
  g(
    'fok',
    'Fill or kill (fok)',
    'نفذ بالكامل أو ألغ (fok)',
    'A time in force under which the order executes only if the whole quantity can execute at once; otherwise ' +
      'it is cancelled. It never rests.',
    'مدة سريان لا ينفذ فيها الأمر إلا إذا أمكن تنفيذ الكمية كلها فورا، وإلا يلغى. ولا يبقى قائما.',
  ),
  g(
    'settled-cash',
    'Settled cash',
    'النقدية المسواة',
    'Cash that has completed settlement. Purchases are paid from settled cash only; proceeds of a sale become ' +
      'settled on the settlement date.',
    'النقدية التي اكتملت تسويتها. تدفع عمليات الشراء من النقدية المسواة فقط، وتصبح حصيلة البيع مسواة في تاريخ التسوية.',
  ),
  g(
    'unsettled-cash',
    'Unsettled cash',
    'النقدية غير المسواة',
    'Proceeds of a sale between the trade date and the settlement date. They are shown in the balances but ' +
      'cannot pay for a purchase until they settle.',
    'حصيلة البيع في الفترة بين تاريخ التنفيذ وتاريخ التسوية، تظهر في الأرصدة ولا يمكن استخدامها في الشراء قبل تسويتها.',
  ),
  g(
    'reservation',
    'Reservation (hold)',
    'الحجز',
    'When an order is accepted, the cash or shares it may need are held so they cannot be spent twice; ' +
      'whatever the order did not use is released when it ends.',
    'عند قبول الأمر تحجز النقدية أو الأسهم التي قد يحتاجها حتى لا تستخدم مرتين، ويفرج عما لم يستخدمه الأمر عند ' +
      'انتهائه.',
  ),
  g(
    'buying-power',
    'Buying power',
    'القوة الشرائية',
    'Settled cash minus the amounts reserved by open orders: the amount a new purchase can use.',
    'النقدية المسواة مطروحا منها المبالغ المحجوزة للأوامر القائمة، وهي ما يمكن أن يستخدمه أمر شراء جديد.',
  ),
  g(
    'mcdr',
    'MCDR',
    'شركة مصر للمقاصة (MCDR)',
    'Misr for Central Clearing, Depository and Registry: the central depository that holds listed securities ' +
      'and clears and settles trades. It charges a fee of 1 basis point per side.',
    'شركة مصر للمقاصة والإيداع والقيد المركزي: جهة الإيداع المركزي التي تحفظ الأوراق المالية المقيدة وتتولى ' +
      'مقاصة العمليات وتسويتها، وتتقاضى رسما قدره نقطة أساس واحدة لكل طرف.',
  ),
  g(
    'stamp-duty',
    'Stamp duty',
    'ضريبة الدمغة',
    'A tax of 12.5 basis points on the value of each purchase and each sale of listed shares, withheld on the ' +
      'contract note.',
    'ضريبة قدرها 12.5 نقطة أساس على قيمة كل عملية شراء أو بيع للأسهم المقيدة، تخصم وتظهر في إشعار التنفيذ.',
  ),
  g(
    'brokerage-commission',
    'Brokerage commission',
    'عمولة السمسرة',
    "The broker's fee per order. In the sandbox it is 10 basis points of the value with a minimum of EGP 5; a " +
      'real broker sets it by contract.',
    'أتعاب شركة السمسرة عن كل أمر. وهي في البيئة التجريبية 10 نقاط أساس من القيمة بحد أدنى 5 جنيهات، وتحددها ' +
      'شركة السمسرة الفعلية بالتعاقد.',
  ),
  g(
    'egx-fee',
    'Exchange fee',
    'رسم البورصة',
    'The Egyptian Exchange service fee: 1 basis point per side, capped at EGP 5,000 per trade.',
    'رسم خدمة البورصة المصرية: نقطة أساس واحدة لكل طرف، بحد أقصى 5000 جنيه للعملية.',
  ),
  g(
    'ipf-fee',
    'Investor Protection Fund fee',
    'رسم صندوق حماية المستثمر',
    'A fee of 0.5 basis point per side paid to the Investor Protection Fund.',
    'رسم قدره نصف نقطة أساس لكل طرف يسدد لصندوق حماية المستثمر.',
  ),
  g(
    'fra',
    'FRA',
    'الهيئة العامة للرقابة المالية',
    'The Financial Regulatory Authority: the Egyptian regulator of the securities market, which licenses ' +
      'brokers. A fee of 0.5 basis point per side is shown under its name.',
    'الجهة المنظمة لسوق الأوراق المالية في مصر، وهي التي ترخص لشركات السمسرة. ويظهر باسمها رسم قدره نصف نقطة ' +
      'أساس لكل طرف.',
  ),
  g(
    'shariah-screen',
    'Shariah screen',
    'الفحص الشرعي',
    'A list of instruments screened as compliant with Islamic law. An investor who elected shariah-only ' +
      'trading cannot open positions outside it (SHARIAH_RESTRICTED).',
    'قائمة الأوراق المالية التي تم فحصها وتبين توافقها مع أحكام الشريعة. ولا يستطيع المستثمر الذي اختار ' +
      'التداول المتوافق مع الشريعة فقط فتح مراكز خارجها (SHARIAH_RESTRICTED).',
  ),
  g(
    'nav',
    'Net asset value (NAV)',
    'صافي قيمة الأصول',
    "The value of a fund's assets minus its liabilities, per unit. Fund subscriptions and redemptions execute " +
      'at the current NAV.',
    'قيمة أصول الصندوق مطروحا منها التزاماته، محسوبة للوثيقة الواحدة. وتنفذ عمليات الاكتتاب والاسترداد بصافي ' +
      'القيمة الحالي.',
  ),
  g(
    'money-market-fund',
    'Money market fund',
    'صندوق أسواق النقد',
    'A fund that holds short-term debt such as treasury bills and deposits. Its NAV accrues daily; units are ' +
      'subscribed and redeemed at the current NAV.',
    'صندوق يستثمر في أدوات دين قصيرة الأجل مثل أذون الخزانة والودائع. يتراكم صافي قيمته يوميا، ويتم الاكتتاب ' +
      'في وثائقه واستردادها بصافي القيمة الحالي.',
  ),
  g(
    'sukuk',
    'Sukuk',
    'الصكوك',
    'Certificates of ownership in assets, structured to comply with Islamic law, that pay periodic returns. In ' +
      'this release they are listed but not orderable through the orders API.',
    'شهادات ملكية في أصول، مصممة لتتوافق مع أحكام الشريعة، وتدر عائدا دوريا. وهي في هذا الإصدار مدرجة لكن لا ' +
      'يمكن تقديم أوامر عليها عبر واجهة الأوامر.',
  ),
  g(
    'treasury-bond',
    'Treasury bond',
    'سند الخزانة',
    'A debt security issued by the Egyptian government that pays a fixed coupon and repays its face value at maturity.',
    'ورقة دين تصدرها الحكومة المصرية، تدفع كوبونا ثابتا وترد قيمتها الاسمية في تاريخ الاستحقاق.',
  ),
  g(
    'coupon',
    'Coupon',
    'الكوبون',
    'The periodic interest a bond pays, as a yearly percentage of its face value, usually in two payments a year.',
    'الفائدة الدورية التي يدفعها السند، كنسبة سنوية من قيمته الاسمية، وتدفع عادة على دفعتين في السنة.',
  ),
  g(
    'accrued-interest',
    'Accrued interest',
    'الفائدة المستحقة',
    "The part of the next coupon earned since the last coupon date. A bond's buyer pays it to the seller on " +
      'top of the clean price.',
    'الجزء من الكوبون التالي المستحق منذ تاريخ آخر كوبون، ويدفعه مشتري السند للبائع إضافة إلى السعر النظيف.',
  ),
  g(
    'clean-price',
    'Clean price',
    'السعر النظيف',
    "A bond's price without accrued interest. Bond quotes and candles are in clean-price space.",
    'سعر السند دون الفائدة المستحقة. وتعرض أسعار السندات وشموعها بالسعر النظيف.',
  ),
  g(
    'dirty-price',
    'Dirty price',
    'السعر الكامل',
    "A bond's clean price plus accrued interest: what the buyer pays in total.",
    'السعر النظيف للسند مضافا إليه الفائدة المستحقة، وهو إجمالي ما يدفعه المشتري.',
  ),
  g(
    'cash-dividend',
    'Cash dividend',
    'التوزيع النقدي',
    'A payment a company makes to its shareholders per share held on the record date, paid net of withholding tax.',
    'مبلغ تدفعه الشركة لمساهميها عن كل سهم مملوك في تاريخ الاستحقاق، ويصرف بعد خصم الضريبة.',
  ),
  g(
    'dividend-withholding',
    'Dividend withholding tax',
    'ضريبة التوزيعات',
    'Tax withheld from a cash dividend before it is paid. The sandbox withholds 10% of the gross dividend; the ' +
      'rate is a parameter.',
    'ضريبة تخصم من التوزيع النقدي قبل صرفه. وتخصم البيئة التجريبية 10% من إجمالي التوزيع، والنسبة قابلة للتعديل.',
  ),
  g(
    'record-date',
    'Record date',
    'تاريخ الاستحقاق',
    'The date on which a shareholder must hold the shares, settled, to be entitled to a dividend.',
    'التاريخ الذي يجب أن يكون المساهم مالكا فيه للأسهم مسواة حتى يستحق التوزيع.',
  ),
  g(
    'ex-dividend-date',
    'Ex-dividend date',
    'تاريخ التداول بدون كوبون',
    'The first trading day on which a purchase no longer carries the right to the declared dividend.',
    'أول يوم تداول لا يمنح فيه الشراء الحق في التوزيع المعلن.',
  ),
  g(
    'suitability-tier',
    'Suitability tier',
    'فئة الملاءمة',
    "The level an investor's suitability questionnaire places them in; the broker uses it to decide which " +
      'products may be offered. Orders need a completed questionnaire (SUITABILITY_REQUIRED).',
    'المستوى الذي يحدده استبيان الملاءمة للمستثمر، وتستخدمه شركة السمسرة لتحديد المنتجات التي يجوز عرضها عليه. ' +
      'ويشترط لتقديم الأوامر استكمال الاستبيان (SUITABILITY_REQUIRED).',
  ),
  g(
    'risk-acknowledgement',
    'Risk acknowledgement',
    'الإقرار بالمخاطر',
    "The investor's statement that they have read and accept the risks of investing; orders need it " +
      '(RISK_ACK_REQUIRED).',
    'إقرار المستثمر بأنه اطلع على مخاطر الاستثمار وقبلها، ويشترط لتقديم الأوامر (RISK_ACK_REQUIRED).',
  ),
  g(
    'kyc',
    'Know your customer (KYC)',
    'اعرف عميلك',
    'The identity checks a broker makes before opening an account: personal details, national ID images and screening.',
    'إجراءات التحقق من الهوية التي تجريها شركة السمسرة قبل فتح الحساب: البيانات الشخصية وصور بطاقة الرقم ' +
      'القومي والفحص.',
  ),
  g(
    'national-id',
    'National ID',
    'الرقم القومي',
    'The 14-digit Egyptian national identity number; the KYC application needs it and both sides of the card.',
    'رقم الهوية المصري المكون من 14 رقما، ويتطلب طلب فتح الحساب الرقم وصورتي وجهي البطاقة.',
  ),
  g(
    'trading-session',
    'Trading session',
    'جلسة التداول',
    'The hours in which orders execute: 10:00 to 14:30 Cairo time on trading days in the sandbox, 10:00 to ' +
      '13:30 in Ramadan.',
    'الساعات التي تنفذ فيها الأوامر: من 10:00 إلى 14:30 بتوقيت القاهرة في أيام التداول بالبيئة التجريبية، ومن ' +
      '10:00 إلى 13:30 في رمضان.',
  ),
  g(
    'market-closed',
    'Market closed',
    'السوق مغلق',
    'Outside the session, day and gtc orders are queued and transmitted at the next open; an order that cannot ' +
      'be queued is refused with MARKET_CLOSED.',
    'خارج الجلسة تقيد أوامر اليوم والأوامر السارية حتى الإلغاء وترسل عند الافتتاح التالي، ويرفض الأمر الذي لا ' +
      'يمكن قيده برمز MARKET_CLOSED.',
  ),
  g(
    'trading-halt',
    'Trading halt',
    'إيقاف التداول',
    'A suspension of trading in one instrument; orders on it are refused with INSTRUMENT_HALTED while it lasts.',
    'تعليق التداول على ورقة مالية بعينها، وترفض الأوامر عليها برمز INSTRUMENT_HALTED طوال مدة الإيقاف.',
  ),
  g(
    'reference-price',
    'Reference price',
    'السعر المرجعي',
    "The price around which the day's price band is set, normally the previous session's closing price.",
    'السعر الذي تحسب حوله الحدود السعرية لليوم، وهو عادة سعر إغلاق الجلسة السابقة.',
  ),
  g(
    'partial-fill',
    'Partial fill',
    'التنفيذ الجزئي',
    "An execution of part of an order's quantity; the order stays partially_filled until the rest executes, is " +
      'cancelled or expires.',
    'تنفيذ جزء من كمية الأمر، ويبقى الأمر في حالة partially_filled حتى ينفذ الباقي أو يلغى أو تنتهي صلاحيته.',
  ),
  g(
    'contract-note',
    'Contract note',
    'إشعار التنفيذ',
    "The record of an order's executions: trade and settlement dates, each fill, each fee, the stamp duty " +
      'withheld and the net amount.',
    'سجل تنفيذ الأمر: تاريخ التنفيذ وتاريخ التسوية وكل عملية تنفيذ وكل رسم وضريبة الدمغة المخصومة والصافي.',
  ),
  g(
    'reject-code',
    'Reject code',
    'رمز الرفض',
    'A stable code naming why an order was refused or rejected, such as INSUFFICIENT_SETTLED_CASH; the order ' +
      'explainer gives its cause and remedy.',
    'رمز ثابت يبين سبب رفض الأمر، مثل INSUFFICIENT_SETTLED_CASH، ويعرض شارح الأوامر سببه وطريقة معالجته.',
  ),
  g(
    'isin',
    'ISIN',
    'الرقم الدولي للورقة المالية',
    'The International Securities Identification Number: a 12-character code that identifies one security worldwide.',
    'رقم تعريف دولي من 12 خانة يميز الورقة المالية الواحدة على مستوى العالم.',
  ),
  g(
    'egx30',
    'EGX30',
    'مؤشر EGX30',
    'The Egyptian Exchange index of thirty large, actively traded companies, weighted by free-float market ' +
      'capitalisation.',
    'مؤشر البورصة المصرية لثلاثين شركة كبيرة ونشطة التداول، مرجح برأس المال السوقي للأسهم حرة التداول.',
  ),
  g(
    'trade-date',
    'Trade date',
    'تاريخ التنفيذ',
    'The day on which a fill executes.',
    'اليوم الذي يتم فيه تنفيذ العملية.',
  ),
  g(
    'settlement-date',
    'Settlement date',
    'تاريخ التسوية',
    'The day on which a fill settles: two trading days after the trade date for listed equities.',
    'اليوم الذي تتم فيه تسوية العملية، وهو بعد يومي تداول من تاريخ التنفيذ للأسهم المقيدة.',
  ),
  g(
    'fund-subscription',
    'Fund subscription',
    'الاكتتاب في صندوق',
    'Buying units of a fund with cash, at the current NAV.',
    'شراء وثائق صندوق نقدا بصافي القيمة الحالي.',
  ),
  g(
    'fund-redemption',
    'Fund redemption',
    'الاسترداد من صندوق',
    'Returning units of a fund for cash, at the current NAV.',
    'إعادة وثائق صندوق مقابل النقدية بصافي القيمة الحالي.',
  ),
  g(
    'idempotency-key',
    'Idempotency key',
    'مفتاح عدم التكرار',
    'A unique header a client sends with a state-changing request, so that a retry of the same request is ' +
      'answered once and not carried out twice.',
    'ترويسة فريدة يرسلها العميل مع الطلب الذي يغير الحالة، حتى يجاب على إعادة الطلب نفسه مرة واحدة ولا ينفذ مرتين.',
  ),
  g(
    'client-order-id',
    'Client order id',
    'معرف الأمر لدى العميل',
    'An optional tenant-unique key a client gives an order; a repeated one is refused with CLIENT_ORDER_ID_EXISTS.',
    'مفتاح اختياري فريد على مستوى المستأجر يمنحه العميل للأمر، ويرفض المكرر منه برمز CLIENT_ORDER_ID_EXISTS.',
  ),
];

export function findGlossary(slug: string): GlossaryEntry | null {
  return GLOSSARY.find((e) => e.slug === slug) ?? null;
}
