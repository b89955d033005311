// An automated accessibility check of the loaded page, in the spirit of
// axe-core's WCAG 2 A/AA rules that need no human judgement. Returns an
// array of violations, each "rule: what (where)"; empty when none.
(() => {
  const out = [];
  const where = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    else if (el.className && typeof el.className === "string") s += "." + el.className.trim().split(/\s+/).join(".");
    const t = (el.textContent || "").trim().slice(0, 40);
    return t ? s + ' "' + t + '"' : s;
  };
  const visible = (el) => {
    const st = getComputedStyle(el);
    return st.display !== "none" && st.visibility !== "hidden" && el.getClientRects().length > 0;
  };
  const name = (el) => {
    if (el.getAttribute("aria-label")) return el.getAttribute("aria-label").trim();
    const by = el.getAttribute("aria-labelledby");
    if (by) return by.split(/\s+/).map((id) => (document.getElementById(id) || {}).textContent || "").join(" ").trim();
    let s = (el.textContent || "").trim();
    if (!s) el.querySelectorAll("img[alt]").forEach((i) => (s += i.alt));
    return (s || el.getAttribute("title") || "").trim();
  };
  // html-has-lang, document-title
  if (!document.documentElement.getAttribute("lang")) out.push("html-has-lang: <html> has no lang attribute");
  if (!document.title.trim()) out.push("document-title: the page has no <title>");
  // landmark-one-main, region
  const mains = document.querySelectorAll("main, [role=main]");
  if (mains.length !== 1) out.push("landmark-one-main: " + mains.length + " main landmarks, want 1");
  const navs = document.querySelectorAll("nav, [role=navigation]");
  if (navs.length > 1) navs.forEach((n) => { if (!name(n) || !n.getAttribute("aria-label") && !n.getAttribute("aria-labelledby")) out.push("landmark-unique: a nav among several has no aria-label (" + where(n) + ")"); });
  document.querySelectorAll("body *").forEach((el) => {
    if (!el.children.length && (el.textContent || "").trim() && visible(el) && !el.closest("header, main, nav, footer, aside, [role=main], [role=banner], [role=contentinfo], [role=navigation], [role=complementary], [role=region], svg, script, style, template"))
      out.push("region: content outside every landmark (" + where(el) + ")");
  });
  // page-has-heading-one, heading-order, empty-heading
  const hs = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")];
  if (!hs.some((h) => h.tagName === "H1")) out.push("page-has-heading-one: no h1");
  let prev = 0;
  hs.forEach((h) => {
    const l = +h.tagName[1];
    if (prev && l > prev + 1) out.push("heading-order: h" + l + " after h" + prev + " (" + where(h) + ")");
    if (!name(h)) out.push("empty-heading: " + where(h));
    prev = l;
  });
  // link-name, button-name, image-alt, label
  document.querySelectorAll("a[href]").forEach((a) => { if (!name(a)) out.push("link-name: a link with no text (" + where(a) + ")"); });
  document.querySelectorAll("button, [role=button]").forEach((b) => { if (!name(b)) out.push("button-name: " + where(b)); });
  document.querySelectorAll("img").forEach((i) => { if (!i.hasAttribute("alt")) out.push("image-alt: " + where(i)); });
  document.querySelectorAll("svg[role=img]").forEach((s) => { if (!name(s) && !s.querySelector("title")) out.push("svg-img-alt: " + where(s)); });
  document.querySelectorAll("input:not([type=hidden]), select, textarea").forEach((f) => {
    const labelled = f.getAttribute("aria-label") || f.getAttribute("aria-labelledby") || (f.id && document.querySelector('label[for="' + CSS.escape(f.id) + '"]')) || f.closest("label") || f.getAttribute("title");
    if (!labelled) out.push("label: a form field with no label (" + where(f) + ")");
  });
  // duplicate-id
  const ids = new Map();
  document.querySelectorAll("[id]").forEach((el) => ids.set(el.id, (ids.get(el.id) || 0) + 1));
  ids.forEach((n, id) => { if (n > 1) out.push("duplicate-id: " + id + " used " + n + " times"); });
  // th-has-data-cells / table headers: every data table has header cells
  document.querySelectorAll("table").forEach((t) => { if (!t.querySelector("th")) out.push("td-has-header: a table without header cells (" + where(t) + ")"); });
  // list: ul/ol hold only li
  document.querySelectorAll("ul, ol").forEach((l) => { [...l.children].forEach((c) => { if (!["LI", "SCRIPT", "TEMPLATE"].includes(c.tagName)) out.push("list: <" + c.tagName.toLowerCase() + "> directly in a list (" + where(l) + ")"); }); });
  // color-contrast (WCAG AA, 4.5:1 for normal text, 3:1 for large), on
  // elements with their own text and an opaque background up the tree.
  const rgb = (s) => { const m = s.match(/rgba?\(([^)]+)\)/); if (!m) return null; const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const bg = (el) => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c && c.a >= 1) return c; if (c && c.a > 0) return null; } return { r: 255, g: 255, b: 255, a: 1 }; };
  let reported = 0;
  document.querySelectorAll("body *").forEach((el) => {
    if (reported > 20 || !visible(el) || el.closest("svg")) return;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) return;
    const st = getComputedStyle(el), fg = rgb(st.color), b = bg(el);
    if (!fg || !b || fg.a < 1) return;
    const l1 = lum(fg), l2 = lum(b), ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    const size = parseFloat(st.fontSize), bold = +st.fontWeight >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) { out.push("color-contrast: " + ratio.toFixed(2) + ":1, want " + need + ":1 (" + where(el) + ")"); reported++; }
  });
  return out;
})()
