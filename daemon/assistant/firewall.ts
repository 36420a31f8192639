// The firewall: the last stage of every answer, and the intent stage's test for advice-seeking
// requests. Deterministic code, no model: the text is split into sentences, each normalised
// (normalise.ts), and matched against rules in English and Arabic, grouped by what they catch:
// recommend, rank, compare, evaluate, time, predict, sentiment (outputs and requests alike) and
// ask / inject (requests only). A rule marked negatable does not fire right after a negation ("this
// is not a recommendation"), so the canonical disclosures pass; an advice verb never is negatable
// ("you should not sell" is advice too). Any output that matches is refused as a whole.
import { normalise } from './normalise.js';

export type RuleKind =
  | 'recommend'
  | 'rank'
  | 'compare'
  | 'evaluate'
  | 'time'
  | 'predict'
  | 'sentiment'
  | 'ask'
  | 'inject';

interface Rule {
  kind: RuleKind;
  re: RegExp;
  negatable?: boolean;
  requestOnly?: boolean;
}

/** Rules are written as people write; their Arabic letter variants fold as normalise.ts folds the text. */
const foldRule = (src: string): string =>
  src.replace(/[أإآ]/g, 'ا').replace(/[ىئ]/g, 'ي').replace(/ة/g, 'ه').replace(/ؤ/g, 'و');
const r = (kind: RuleKind, src: string, o: { negatable?: boolean; requestOnly?: boolean } = {}): Rule => ({
  kind,
  re: new RegExp(`(?:^| )(?:${foldRule(src)})(?= |$)`),
  ...o,
});

const ACT =
  '(?:buy|sell|hold|invest|consider|add|accumulate|avoid|exit|dump|load|trim|increase|reduce|switch|short|go ' +
  'long|go short|get in|get out|keep|own|pick|choose|purchase)';
const SEC =
  '(?:stock|stocks|share|shares|equity|equities|pick|picks|investment|investments|fund|funds|bond|bonds|sukuk|' +
  'security|securities|performer|performers|bet|bets|choice|choices|option|options|sector|sectors|company|' +
  'companies|bank|banks|buy|buys|name|names|opportunit(?:y|ies)|asset|assets)';
const MOVE =
  '(?:rise|fall|drop|climb|soar|jump|rally|surge|plunge|crash|double|triple|go up|go down|increase|decrease|' +
  'rebound|recover|gain|lose|hit|reach|break out|moon|skyrocket|tank|collapse|outperform|underperform|' +
  'appreciate|depreciate|move up|move down|be higher|be lower)';
const AR_ACT =
  '(?:بشراء|ببيع|بالشراء|بالبيع|بالاحتفاظ|بالاستثمار|بالدخول|بالخروج|تشتري|تشتر|تبيع|تحتفظ|تستثمر|تدخل|تخرج|' +
  'تضيف|تتجنب|تبتعد|تزيد|تقلل|شراء|بيع|الشراء|البيع|الاحتفاظ|الاستثمار|اشتري|ابيع|احتفظ|استثمر)';
const AR_SEC =
  '(?:سهم|السهم|اسهم|الاسهم|صندوق|الصندوق|صناديق|الصناديق|سند|السند|سندات|السندات|صكوك|الصكوك|استثمار|' +
  'الاستثمار|شركه|الشركه|شركات|الشركات|بنك|البنوك|قطاع|القطاع|خيار|ورقه|الاوراق|فرصه)';

const RULES: Rule[] = [
  // recommend
  r('recommend', `(?:i|we|i d|we d|i would|we would) (?:strongly )?(?:recommend|suggest|advise|advice)`),
  r('recommend', `(?:my|our) (?:recommendation|advice|suggestion|pick|tip|top pick|call)`),
  r(
    'recommend',
    `you (?:should|must|ought to|need to|might want to|may want to|could|d better|had better|better|have to|` +
      `can) (?:not |definitely |really |probably |seriously |now )?${ACT}`,
  ),
  r(
    'recommend',
    `(?:strong buy|strong sell|buy rating|sell rating|hold rating|overweight|underweight|accumulate rating|top ` +
      `pick|must buy|must have stock|recommended (?:stock|buy|fund|bond|portfolio))`,
  ),
  r('recommend', `(?:recommendation|recommended) (?:to|is|for)`, { negatable: true }),
  r(
    'recommend',
    `(?:buy|sell|accumulate|dump|short|grab|snap up|load up on|stay away from|get out of) (?:it|this|that|them|` +
      `these|those|now|today|more|the stock|the shares|shares|immediately|asap|before|while)`,
  ),
  r(
    'recommend',
    `(?:انصح|ننصح|نوصي|اوصي|انصحك|ننصحك|نوصيك|اوصيك|توصيتي|توصيتنا|نصيحتي|نصيحتنا|اقترح عليك|اقترح|انصحكم)`,
  ),
  r('recommend', `(?:يجب|ينبغي|عليك|لازم|من الافضل|الافضل|يفضل|حاول|بادر|سارع|لا) (?:ان )?${AR_ACT}`),
  r(
    'recommend',
    `(?:احتفظ ب\\S*|لا تبعه|لا تبع|لا تبيعه)|(?:اشتر|اشتري|بع|استثمر في|ادخل في|اخرج من|تجنب) (?:الان|اليوم|` +
      `فورا|هذا|هذه|السهم|الاسهم|سهم|اسهم|في|ب)`,
  ),
  r(
    'recommend',
    `(?:توصيه|توصيات|نصيحه) (?:ب|بال)?(?:الشراء|شراء|بشراء|البيع|بيع|ببيع|الاحتفاظ|احتفاظ|بالاحتفاظ|استثماريه)`,
    { negatable: true },
  ),
  r('recommend', `(?:شراء قوي|بيع قوي|فرصه شراء|فرصه للشراء|فرصه استثماريه|فرصه ذهبيه)`),
  // rank
  r(
    'rank',
    `(?:best|top|worst|strongest|weakest|safest|hottest|most promising|most profitable|highest returning|` +
      `highest yielding|biggest winners?|biggest losers?|leading|favorite|favourite)` +
      `(?: \\d+| three| five| ten)? ${SEC}`,
  ),
  r('rank', `(?:top|best) (?:\\d+|three|five|ten)`),
  r('rank', `(?:rank|ranks|ranked|ranking|rankings|rating of)`, { negatable: true }),
  r('rank', `(?:number one|no 1|#1) ${SEC}`),
  r('rank', `(?:افضل|احسن|اقوي|اسوا|اضعف|انجح|اربح|اامن|ارخص|اهم)(?: \\d+)? ${AR_SEC}`),
  r('rank', `(?:افضل|اعلي|اكبر) (?:\\d+|عائد|ربح|ارباح|خمسه|عشره|ثلاثه)`),
  r('rank', `(?:رتب|رتبها|ترتيب|صنف|تصنيف|قائمه افضل) (?:لي )?${AR_SEC}?`),
  // compare
  r(
    'compare',
    `(?:better|worse|safer|riskier|cheaper|stronger|weaker|more attractive|less attractive|more profitable) ` +
      `(?:than(?! (?:the order s|its|the|your) limit)|investment|buy|bet|pick|choice|stock|option)`,
  ),
  r(
    'compare',
    `(?:outperform|outperforms|outperformed|outperforming|underperform|underperforms|underperforming|beats|` +
      `beat the market|will beat|is beating|beating the market|beating the index)`,
  ),
  r('compare', `(?:vs|versus|compared to|compared with|in comparison|which is better|which one is better|or should i)`),
  r(
    'compare',
    `(?:افضل من|احسن من|اسوا من|اقوي من|اضعف من|امن من|اكثر امانا من|مقارنه ب\\S*|ارخص من|اعلي عائدا من|يتفوق|` +
      `تتفوق|سيتفوق|ستتفوق|مقارنه ب|مقارنه مع|قارن|ايهما افضل|ايهما احسن|ايهم افضل)`,
  ),
  // evaluate
  r(
    'evaluate',
    `(?:good|great|excellent|solid|smart|safe|strong|wise|bad|poor|terrible|attractive|compelling|cheap|` +
      `expensive) (?:buy|investment|stock|share|pick|bet|choice|opportunity|entry|deal|value)`,
  ),
  r(
    'evaluate',
    `(?:undervalued|overvalued|overpriced|underpriced|bargain|fairly valued|intrinsic value|worth buying|worth ` +
      `selling|worth holding|worth it|worth investing|solid fundamentals|strong fundamentals|weak fundamentals|` +
      `healthy balance sheet|looks cheap|looks expensive|is cheap|is expensive)`,
  ),
  r(
    'evaluate',
    `(?:مقوم باقل|اقل من قيمته|اعلي من قيمته|مبالغ في تقييمه|مقيم باقل|مقيم باعلي|سعره جذاب|سعر جذاب|سهم جذاب|` +
      `قيمه عادله|استثمار جيد|استثمار ممتاز|استثمار امن|استثمار مربح|استثمار سيي|سهم جيد|سهم ممتاز|سهم قوي|سهم ` +
      `ضعيف|سهم رخيص|صفقه جيده|صفقه رابحه|يستحق الشراء|يستحق الاستثمار|يستحق البيع|اساسيات قويه|اساسيات ضعيفه|` +
      `رخيص|مغري|جذاب|جذابه)`,
  ),
  // time
  r(
    'time',
    `(?:good|right|best|ideal|perfect|great|bad|wrong) ` +
      `(?:time|moment|entry|entry point|point|day|week|month) (?:to|for)`,
  ),
  r(
    'time',
    `(?:buy|sell|get in|get out|enter|exit) (?:now|today|tomorrow|soon|before|after|the dip|on the dip|at the ` +
      `open|immediately|quickly|while you can)`,
  ),
  r(
    'time',
    `(?:wait for (?:the|a) (?:dip|drop|pullback|correction|better price|rally|breakout)|wait for (?:lower|` +
      `higher) prices|wait until (?:it|the price|prices) (?:drops?|falls?|rises?)|hold off|don t buy|don t sell|` +
      `do not buy|do not sell|time the market|timing the market|entry point|exit point|buy the dip|sell the ` +
      `rally|take profit|take profits|lock in|cut your losses|before it s too late|before it rises|before it ` +
      `falls|don t miss|dont miss|when to buy|when to sell|when should i)`,
  ),
  r(
    'time',
    `(?:الوقت المناسب|وقت مناسب|الوقت الافضل|افضل وقت|التوقيت المناسب|توقيت الشراء|توقيت البيع|لحظه مناسبه|` +
      `نقطه دخول|نقطه خروج|قبل فوات الاوان|لا تفوت|اغتنم|جني الارباح|جني الربح|انتظر حتي|انتظر الانخفاض|انتظر ` +
      `الهبوط|متي اشتري|متي ابيع|متي ادخل|متي اخرج)`,
  ),
  r('time', `(?:اشتر|اشتري|بع|ادخل|اخرج) (?:الان|اليوم|غدا|قبل|فورا|بسرعه)`),
  // predict
  r(
    'predict',
    `(?:will|going to|gonna|set to|poised to|expected to|likely to|bound to|about to|should|could|might|may|` +
      `would) (?:[a-z0-9]+ )?(?:probably |likely |definitely |surely |soon )?${MOVE}`,
  ),
  r(
    'predict',
    `(?:price target|target price|upside|downside potential|forecast|forecasts|prediction|predictions|predict|` +
      `projected price|projection|outlook|bullish|bearish|to the moon|expected return|guaranteed return|` +
      `guaranteed profit|guaranteed gains|sure thing|sure bet|can t lose|cannot lose|risk free profit|` +
      `will make you|you will make|you will earn|you will profit|you will lose|next week s price|` +
      `tomorrow s price|where is .* heading)`,
  ),
  r(
    'predict',
    `(?:سيرتفع|سترتفع|سينخفض|ستنخفض|سيهبط|ستهبط|سيصعد|ستصعد|سيتضاعف|سيقفز|ستقفز|سيتراجع|سيتعافي|سوف يرتفع|سوف ` +
      `ترتفع|سوف ينخفض|سوف يهبط|سوف يصعد|من المتوقع|يتوقع ان|متوقع ان|توقعات|توقعاتك|توقع|تتوقع|هدف سعري|السعر ` +
      `المستهدف|سعر مستهدف|مرشح للارتفاع|مرشح للصعود|مرشح للهبوط|صعودي|هبوطي|عائد مضمون|ربح مضمون|ارباح مضمونه|` +
      `مضمون|هل سيرتفع|هل سينخفض|الي اين يتجه|اتجاه السهم)`,
  ),
  // sentiment
  r(
    'sentiment',
    `(?:positive|negative|good|bad|great|terrible|bullish|bearish|encouraging|worrying|promising|alarming|` +
      `optimistic|pessimistic|upbeat|gloomy) (?:news|headline|headlines|sign|signal|signs|sentiment|outlook|` +
      `development|report|earnings|results|for)`,
  ),
  r('sentiment', `(?:sentiment|market mood|investor mood|optimism|pessimism|euphoria|panic selling|fear and greed)`),
  r(
    'sentiment',
    `(?:news|headline|report|announcement|article|it) (?:is|are|was|looks|seems|sounds) (?:positive|negative|` +
      `good|bad|bullish|bearish|great|encouraging|worrying)`,
  ),
  r(
    'sentiment',
    `(?:good for|bad for|boost|boosts|hurt|hurts|weigh on|weighs on|lift|lifts) (?:the )?(?:stock|shares|price|` +
      `company|investors|shareholders)`,
  ),
  r(
    'sentiment',
    `(?:اخبار|خبر|الخبر|الاخبار|عناوين|العناوين|التقرير) (?:ال)?(?:ايجابيه|سلبيه|جيده|سييه|ساره|مطمينه|مقلقه|` +
      `ايجابي|سلبي|جيد|سيي|مبشره|مبشر)`,
  ),
  r(
    'sentiment',
    `(?:ايجابي|ايجابيه|سلبي|سلبيه|جيد|جيده|سيي|سييه) (?:للسهم|للشركه|للمستثمرين|للسوق|علي السهم|علي السعر|علي الشركه)`,
  ),
  r('sentiment', `(?:معنويات|المعنويات|تفاول|متفايل|تشاوم|متشايم|مزاج السوق|ثقه المستثمرين|ذعر|الخوف والطمع|هل الخبر)`),
  r('sentiment', `(?:يدعم|تدعم|سيدعم|يضغط علي|تضغط علي|سيضغط علي|ستضغط علي|يعزز) (?:السهم|سعر|الاسعار|الشركه)`),
  // ask (requests only): opinion and advice questions that name no rule above
  r(
    'ask',
    `(?:should i|shall i|would you|what would you|do you think|what do you think|your opinion|your view|your ` +
      `take|what stock|what stocks|which stock|which stocks|which fund|which bond|which share|which company|` +
      `which one|what to buy|what to sell|is it wise|is now|tips?|hot tip|stock tip|give me a tip|advise me|any ` +
      `advice|invest in what|where to invest|where should i|is (?:the|this|that) (?:news|headline|report|` +
      `announcement|article))`,
    { requestOnly: true },
  ),
  r(
    'ask',
    `(?:هل اشتري|هل ابيع|هل احتفظ|هل استثمر|هل ادخل|هل اخرج|اي سهم|اي الاسهم|اي صندوق|اي شركه|ما السهم|ما ` +
      `الاسهم|ما هو السهم|بماذا تنصح|ماذا تنصح|انصحني|تنصحني|رايك|وجهه نظرك|تنصح|ماذا اشتري|ماذا ابيع|اين استثمر|` +
      `نصيحه|توصيه|توصيات|ترشيح|رشح)`,
    { requestOnly: true },
  ),
  // inject (requests only)
  r(
    'inject',
    `(?:ignore|disregard|forget|override) (?:all |any |the |your )?(?:previous|prior|above|earlier|system|` +
      `safety)? ?(?:instructions|rules|prompt|guidelines|policy|filters?)`,
    { requestOnly: true },
  ),
  r(
    'inject',
    `(?:system prompt|developer mode|jailbreak|you are now|act as|pretend to be|pretend you|roleplay|dan mode|` +
      `new instructions|assistant:|system:)`,
    { requestOnly: true },
  ),
  r('inject', `(?:تجاهل|انس|انسي|تخط|تخطي|الغ) (?:كل |جميع )?(?:التعليمات|القواعد|الاوامر|السياسه|القيود)`, {
    requestOnly: true,
  }),
  r('inject', `(?:انت الان|تصرف ك|تظاهر|وضع المطور|موجه النظام)`, { requestOnly: true }),
];

const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'nor',
  'without',
  'لا',
  'ليس',
  'ليست',
  'ولا',
  'وليس',
  'غير',
  'دون',
  'بدون',
  'لن',
  'لم',
]);

/** Registry code names (PRICE_WORSE_THAN_LIMIT) are identifiers, not prose: they are not matched. */
const CODE_NAMES = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

export interface Verdict {
  ok: boolean;
  /** The first rule that fired: its kind, for tests and the docs' figures (never shown to the caller). */
  kind?: RuleKind;
}

function negated(sentence: string, at: number): boolean {
  const before = sentence.slice(0, at).trim().split(' ').slice(-3);
  return before.some((w) => NEGATORS.has(w));
}

function scan(text: string, requests: boolean): Verdict {
  const sentences = String(text).split(/[.!?؟؛;:\n\r]+/u);
  for (const raw of sentences) {
    const s = normalise(raw.replace(CODE_NAMES, ' '));
    if (!s) continue;
    for (const rule of RULES) {
      if (rule.requestOnly && !requests) continue;
      const m = rule.re.exec(s);
      if (!m) continue;
      if (rule.negatable && negated(s, m.index + (m[0].startsWith(' ') ? 1 : 0))) continue;
      return { ok: false, kind: rule.kind };
    }
  }
  return { ok: true };
}

/**
 * Verdicts of texts already checked, one cache per kind of check. Most answers are the registries'
 * fixed words (glossary, disclosures, causes and remedies) and most requests a slug or a code, so a
 * registry route costs lookups rather than scans. Bounded, and cleared whole when full; a verdict
 * depends on the text alone, so caching changes no answer.
 */
const SEEN_MAX = 4096;
function remembered(requests: boolean): (text: string) => Verdict {
  const seen = new Map<string, Verdict>();
  return (text) => {
    const hit = seen.get(text);
    if (hit) return hit;
    const v = scan(text, requests);
    if (seen.size >= SEEN_MAX) seen.clear();
    seen.set(text, v);
    return v;
  };
}

/** An answer's text: ok when it states facts only; refused when it advises in any of the rule kinds. */
export const checkOutput: (text: string) => Verdict = remembered(false);

/** A request's text: ok when it asks for information; refused when it seeks advice or injects instructions. */
export const checkRequest: (text: string) => Verdict = remembered(true);

/** Every string inside a value (an answer body), for checking the whole answer at once. */
export function textsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) textsOf(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) textsOf(v, out);
  return out;
}
