// The Typst source of a client statement (docs/reports.md, "The document"). It reads everything from
// the JSON input `data` (statementDocument's output plus the render's own fields), so no value is
// ever spliced into markup: a name full of # or ] renders as written. Layout: the tenant's logo,
// name and colours in the header of every page, its footer text and "page X of Y" in the footer,
// the investor block, the chosen sections in order, the disclosures last, kept together on one page. `locale: ar` sets
// the whole page right to left; table columns, numbers, ISINs and symbols keep their reading order (Unicode bidi), and
// the value chart runs left to right in both. Lines too wide for the code are split in the JS between template pieces,
// never with a newline in the Typst text, so the source (and every PDF) stays byte for byte the same.
export const STATEMENT_TEMPLATE =
  `
#let d = json(bytes(sys.inputs.data))
#let l = d.labels
#let ar = d.locale == "ar"
#let primary = rgb(d.brand.primary)
#let accent = rgb(d.brand.accent)
#let when = d.date
#set document(title: l.title + " - " + d.header.investor, author: d.brand.name,
  date: datetime(year: when.year, month: when.month, day: when.day, hour: when.hour, minute: when.minute, ` +
  `second: when.second))
#set text(font: (d.brand.font, "Amiri"), fallback: false, lang: d.locale, dir: if ar { rtl } else { ltr }, size: 9pt)
#set par(justify: false)
// A number, date, account or licence number as one left-to-right unit: inside a right-to-left line its
// minus sign stays on its left and its hyphens are neither a break nor a bidi boundary.
#let ltr-unit(s) = box(text(dir: ltr, s))

#let page-header = grid(columns: (auto, 1fr, auto), align: horizon, column-gutter: 8pt,
  if d.logo_path != none { image(d.logo_path, height: 1.1cm) } else { [] },
  text(size: 13pt, weight: "bold", fill: primary, d.brand.name),
  text(size: 11pt, fill: accent, l.title),
)
#let page-footer = context grid(columns: (1fr, auto), align: bottom,
  text(size: 7.5pt, fill: luma(90), d.brand.footer),
  text(size: 7.5pt, fill: luma(90), l.page + " " + str(counter(page).get().first()) + " " + l.of + " " + ` +
  `str(counter(page).final().first())),
)
#set page(paper: "a4", margin: (top: 2.6cm, bottom: 2cm, x: 1.7cm),
  header: page-header + v(-4pt) + line(length: 100%, stroke: 1.5pt + primary),
  footer: line(length: 100%, stroke: 0.5pt + luma(180)) + v(-2pt) + page-footer)

#let heading-bar(title) = block(above: 14pt, below: 6pt, width: 100%, inset: (y: 4pt, x: 6pt), fill: primary,
  text(fill: white, weight: "bold", size: 10.5pt, title))

#let zebra(x, y) = if y == 0 { accent.lighten(75%) } else if calc.even(y) { luma(246) } else { none }

#let data-table(columns, numeric-from, headers, rows) = table(
  columns: columns, stroke: none, fill: zebra, inset: (x: 4pt, y: 3.5pt),
  align: (x, y) => if x >= numeric-from { end + horizon } else { start + horizon },
  table.header(..headers.map(h => text(weight: "bold", size: 8pt, h))),
  ..rows.map(r => r.enumerate().map(((x, c)) => text(size: 8pt, if x >= numeric-from or x == 0 { ltr-unit(c) } ` +
  `else { c }))).flatten(),
)

#let kv(label, value) = (text(fill: luma(80), label), text(weight: "bold", value))
#block(width: 100%, inset: 8pt, stroke: 0.6pt + luma(200), radius: 3pt, grid(columns: (auto, 1fr, auto, 1fr), ` +
  `column-gutter: 10pt, row-gutter: 6pt,
  ..kv(l.investor, d.header.investor), ..kv(l.account, ltr-unit(d.header.account)),
  ..kv(l.broker, d.header.broker), ..kv(l.licence, ltr-unit(d.header.licence)),
  ..kv(l.period, [#ltr-unit(d.header.period_start) #l.to #ltr-unit(d.header.period_end)]), ..kv(l.generated, ` +
  `ltr-unit(d.header.generated)),
))
#text(size: 7.5pt, fill: luma(90), l.amounts)

#let summary(s) = {
  heading-bar(l.summary)
  table(columns: (1fr, auto), stroke: none, fill: (x, y) => if calc.odd(y) { luma(246) } else { none }, inset: ` +
  `(x: 6pt, y: 4pt), align: (x, y) => if x == 1 { end } else { start },
    ..s.rows.enumerate().map(((i, r)) => (r.at(0), ltr-unit(r.at(1))).map(c => if i == s.rows.len() - 1 { ` +
  `text(weight: "bold", c) } else { c })).flatten())
}

#let chart(c) = {
  let pt(p) = (p.at(0) * 1pt, p.at(1) * 1pt)
  block(width: 100%, below: 8pt, text(size: 8pt, fill: luma(80), l.value_series))
  // time runs left to right in both languages
  align(left, block(width: c.width * 1pt + 70pt, height: c.height * 1pt + 16pt, {
    place(top + left, dx: 0pt, dy: 0pt, rect(width: c.width * 1pt, height: c.height * 1pt, stroke: 0.4pt + luma(200)))
    place(top + left, curve(stroke: 1.4pt + accent, curve.move(pt(c.points.at(0))), ..c.points.slice(1).map(p ` +
  `=> curve.line(pt(p)))))
    place(top + left, dx: c.width * 1pt + 4pt, dy: 0pt, text(size: 7pt, c.max))
    place(top + left, dx: c.width * 1pt + 4pt, dy: c.height * 1pt - 6pt, text(size: 7pt, c.min))
    place(top + left, dy: c.height * 1pt + 3pt, text(size: 7pt, c.from))
    place(top + left, dx: c.width * 1pt - 40pt, dy: c.height * 1pt + 3pt, text(size: 7pt, c.to))
  }))
}

#let performance(s) = {
  heading-bar(l.performance)
  grid(columns: (auto, auto), column-gutter: 10pt, text(fill: luma(80), l.twr), text(weight: "bold", size: ` +
  `11pt, ltr-unit(s.twr)))
  v(6pt)
  if s.chart != none { chart(s.chart) }
}

#let holdings(s) = {
  heading-bar(l.holdings)
  if s.rows.len() == 0 { text(fill: luma(80), l.no_holdings) } else {
    data-table((auto, 1fr, auto, auto, auto, auto, auto, auto), 3,
      (l.symbol, l.name, l.isin, l.qty, l.price, l.value, l.cost, l.unrealized), s.rows)
  }
}

#let trades(s) = {
  heading-bar(l.trades)
  if s.rows.len() == 0 { text(fill: luma(80), l.no_trades) } else {
    // the charges under the Summary's own labels: fees and commissions, then taxes (stamp duty)
    data-table((auto, auto, auto, auto, auto, auto, auto, auto, auto, auto), 3,
      (l.date, l.symbol, l.side, l.qty, l.price, l.value, l.fees, l.taxes, l.net, l.settlement), s.rows)
    align(end, text(size: 8pt, [#l.trades_total: #l.fees #ltr-unit(s.total_fees) #h(1.2em) #l.taxes ` +
  `#ltr-unit(s.total_taxes)]))
  }
}

#for s in d.sections {
  if s.kind == "summary" { summary(s) }
  else if s.kind == "performance" { performance(s) }
  else if s.kind == "holdings" { holdings(s) }
  else if s.kind == "trades" { trades(s) }
}

// One unbreakable block: when the disclosures do not fit under the last section they move to the next
// page whole, heading included, so a page never holds only a line or two of them.
#block(breakable: false, width: 100%, {
  heading-bar(l.disclosures)
  for t in d.disclosures { par(text(size: 8pt, t)); v(2pt) }
})
`;
