// The interactive map of sitemap graph: plain JavaScript, no library, no
// request. The data is the JSON in #data: nodes in pre-order, children by
// index.
(function () {
  "use strict";
  var T0 = performance.now();
  var D = JSON.parse(document.getElementById("data").textContent);
  var N = D.nodes, T1 = performance.now();
  var ROW = 24, CH = 7, PAD = 30;
  var svg = document.getElementById("svg"), vp = document.getElementById("vp");
  var gNodes = document.getElementById("nodes"), gEdges = document.getElementById("edges"), gLinks = document.getElementById("links");
  var map = document.getElementById("map"), q = document.getElementById("q"), hits = document.getElementById("hits");
  var pTitle = document.getElementById("ptitle"), pBody = document.getElementById("pbody");
  var fmt = function (n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); };
  var esc = function (s) { return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); };
  var count = function (n, one, many) { return n === 1 ? "1 " + one : fmt(n) + " " + many; };
  var isHTTP = function (s) { return /^https?:\/\//i.test(s); };

  // Parents and depths (pre-order: a parent comes before its children).
  // Page locs below their section are written relative to it.
  N.forEach(function (n) { (n.pg || []).forEach(function (p) { if (!isHTTP(p[0])) p[0] = n.p + p[0]; p[1] = p[1] || ""; p[2] = p[2] || ""; }); });
  N.forEach(function (n, i) { n.id = i; n.c = n.c || []; if (i === 0) { n.d = 0; n.up = -1; } n.c.forEach(function (c) { N[c].up = i; N[c].d = n.d + 1; }); });
  N.forEach(function (n) { n.label = n.up < 0 || n.m ? n.n : n.n + "/"; if (n.label.length > 40) n.label = n.label.slice(0, 39) + "…"; n.count = fmt(n.t) + (n.x ? " (+" + fmt(n.x) + ")" : ""); });

  // Open levels from the root while at most 150 sections show.
  N.forEach(function (n) { n.open = false; });
  N[0].open = true;
  var shown = 1 + N[0].c.length, level = N[0].c.slice();
  while (level.length) {
    var next = [];
    level.forEach(function (i) { N[i].c.forEach(function (c) { next.push(c); }); });
    if (!next.length || shown + next.length > 150) break;
    level.forEach(function (i) { N[i].open = true; });
    shown += next.length;
    level = next;
  }

  var query = "", match = null, selected = -1;
  var view = { k: 1, x: 20, y: 20 };

  function matches(n, s) {
    if (n.n.toLowerCase().indexOf(s) >= 0 || (n.p || "").toLowerCase().indexOf(s) >= 0) return true;
    var pg = n.pg || [];
    for (var i = 0; i < pg.length; i++) if (pg[i][0].toLowerCase().indexOf(s) >= 0 || pg[i][1].toLowerCase().indexOf(s) >= 0) return true;
    return false;
  }

  // search computes the matching sections and the ones on their way.
  function search() {
    query = q.value.trim().toLowerCase();
    if (selected >= 0) select(selected);
    if (!query) { match = null; hits.textContent = ""; render(); return; }
    match = new Uint8Array(N.length); // 2: a match, 1: an ancestor of one
    var count = 0;
    for (var i = N.length - 1; i >= 0; i--) {
      if (matches(N[i], query)) { match[i] = 2; count++; }
      if (match[i] && N[i].up >= 0 && !match[N[i].up]) match[N[i].up] = 1;
    }
    hits.textContent = count === 1 ? "1 section" : fmt(count) + " sections";
    render();
    fit();
  }

  function isOpen(n) { return match ? true : n.open; }
  function visibleKids(n) {
    if (!isOpen(n)) return [];
    return match ? n.c.filter(function (c) { return match[c]; }) : n.c;
  }

  // render lays out the visible tree (children in rows, a parent centred
  // over its first and last child: tidy, O(n)) and draws it.
  function render() {
    var rows = 0, vis = [], colW = [];
    (function place(i) {
      var n = N[i], kids = visibleKids(n);
      vis.push(i);
      var w = (n.label.length + n.count.length + 1) * CH + PAD + 20;
      colW[n.d] = Math.max(colW[n.d] || 0, w);
      if (!kids.length) { n.y = rows++; return; }
      kids.forEach(place);
      n.y = (N[kids[0]].y + N[kids[kids.length - 1]].y) / 2;
    })(0);
    var colX = [0];
    for (var d = 0; d < colW.length; d++) colX[d + 1] = colX[d] + colW[d];
    var edges = [], nodes = [];
    vis.forEach(function (i) {
      var n = N[i];
      n.px = colX[n.d]; n.py = n.y * ROW + ROW / 2;
      if (n.up >= 0 && N[n.up].px !== undefined) {
        var p = N[n.up], x0 = p.px + (p.label.length + p.count.length + 1) * CH + 14, x1 = n.px - 6, mx = (x0 + x1) / 2;
        edges.push("M" + x0 + " " + p.py + "C" + mx + " " + p.py + " " + mx + " " + n.py + " " + x1 + " " + n.py);
      }
      var cls = "node" + (n.m ? " more" : "") + (n.c.length && !isOpen(n) ? " closed" : "") + (match && match[i] === 2 ? " hit" : "") + (i === selected ? " sel" : "") + (n.lk && (n.lk.or || n.lk.ms) ? " flag" : "");
      var tip = (n.p || n.n) + ": " + fmt(n.t) + (n.t === 1 ? " page" : " pages") + (n.nw ? ", newest " + n.nw : "");
      if (n.lk) tip += ", " + count(n.lk.in, "inlink", "inlinks") + (n.lk.dp >= 0 ? ", click depth " + n.lk.dp : ", not reached by links") +
        (n.lk.or ? ", " + count(n.lk.or, "orphan", "orphans") : "") + (n.lk.ms ? ", " + fmt(n.lk.ms) + " missing" : "") + (n.lk.lo ? ", " + fmt(n.lk.lo) + " left out" : "");
      nodes.push('<g class="' + cls + '" data-id="' + i + '" transform="translate(' + n.px + "," + n.py + ')" tabindex="0" role="button" aria-label="' + esc(tip) + '"' +
        (n.c.length ? ' aria-expanded="' + isOpen(n) + '"' : "") + "><title>" + esc(tip) + '</title><circle r="5"></circle><text x="10" dy="4"><tspan class="l">' + esc(n.label) +
        '</tspan><tspan class="c" dx="6">' + n.count + "</tspan></text></g>");
    });
    gEdges.innerHTML = '<path class="e" d="' + edges.join("") + '"></path>';
    gNodes.innerHTML = nodes.join("");
    drawLinks(vis);
    // Forget positions of nodes not drawn, so links and edges skip them.
    var on = new Uint8Array(N.length);
    vis.forEach(function (i) { on[i] = 1; });
    N.forEach(function (n, i) { if (!on[i]) { n.px = undefined; } });
    render.size = { w: colX[colX.length - 1], h: rows * ROW };
    render.visible = vis.length;
  }

  // drawLinks draws the aggregated internal links between drawn
  // sections (the link view only).
  function drawLinks(vis) {
    if (!D.edges) { gLinks.innerHTML = ""; return; }
    var on = {}, out = [], max = 1;
    vis.forEach(function (i) { on[i] = true; });
    D.edges.forEach(function (e) { if (e[2] > max) max = e[2]; });
    // A link between columns runs from the end of the shallower
    // section's label to the deeper one's dot, as the tree's edges do,
    // never across a label; one within a column loops out on its left.
    var right = function (n) { return n.px + (n.label.length + n.count.length + 1) * CH + 14; };
    D.edges.forEach(function (e) {
      if (!on[e[0]] || !on[e[1]] || e[0] === e[1]) return;
      var a = N[e[0]], b = N[e[1]], d;
      if (a.d !== b.d) {
        var s = a.d < b.d ? a : b, t = a.d < b.d ? b : a, x0 = right(s), x1 = t.px - 6, mx = (x0 + x1) / 2;
        d = "M" + x0 + " " + s.py + "C" + mx + " " + s.py + " " + mx + " " + t.py + " " + x1 + " " + t.py;
      } else {
        var bend = Math.max(30, Math.abs(a.py - b.py) / 3);
        d = "M" + (a.px - 6) + " " + a.py + "C" + (a.px - bend) + " " + a.py + " " + (b.px - bend) + " " + b.py + " " + (b.px - 6) + " " + b.py;
      }
      out.push('<path class="k" stroke-width="' + (1 + 5 * Math.sqrt(e[2] / max)).toFixed(1) + '" d="' + d +
        '"><title>' + esc((a.p || a.n) + " → " + (b.p || b.n) + ": " + fmt(e[2]) + (e[2] === 1 ? " link" : " links")) + "</title></path>");
    });
    gLinks.innerHTML = out.join("");
  }

  function apply() { vp.setAttribute("transform", "translate(" + view.x + "," + view.y + ") scale(" + view.k + ")"); }
  function fit() {
    var r = map.getBoundingClientRect(), s = render.size;
    var k = Math.min(1.2, (r.width - 40) / Math.max(1, s.w), (r.height - 40) / Math.max(1, s.h));
    view.k = Math.max(0.05, k); view.x = 20; view.y = Math.max(20, (r.height - s.h * view.k) / 2);
    apply();
  }
  function zoom(f, cx, cy) {
    var r = map.getBoundingClientRect();
    if (cx === undefined) { cx = r.width / 2; cy = r.height / 2; }
    var k = Math.min(8, Math.max(0.05, view.k * f));
    view.x = cx - (cx - view.x) * (k / view.k); view.y = cy - (cy - view.y) * (k / view.k); view.k = k;
    apply();
  }

  // select lists the pages of section i in the panel.
  function select(i) {
    selected = i;
    var n = N[i], h = [];
    pTitle.textContent = n.p || n.n;
    var facts = [fmt(n.t) + (n.t === 1 ? " page" : " pages") + (n.h !== undefined && n.t !== (n.h || 0) && !n.m ? " (" + fmt(n.h || 0) + " in this section itself)" : "")];
    if (n.nw) facts.push("newest lastmod " + n.nw);
    if (n.im) facts.push(count(n.im, "image", "images"));
    if (n.vi) facts.push(count(n.vi, "video", "videos"));
    if (n.ne) facts.push(count(n.ne, "news article", "news articles"));
    if (n.hl) facts.push(count(n.hl, "hreflang alternate", "hreflang alternates"));
    if (n.lk) {
      facts.push(count(n.lk.in, "internal link in", "internal links in"));
      if (n.lk.dp >= 0) facts.push("click depth " + n.lk.dp);
      if (n.lk.or) facts.push(count(n.lk.or, "orphan", "orphans"));
      if (n.lk.ms) facts.push(count(n.lk.ms, "page", "pages") + " missing from the sitemap");
      if (n.lk.lo) facts.push(count(n.lk.lo, "page", "pages") + " left out");
    }
    h.push('<p class="meta">' + esc(facts.join(" · ")) + "</p>");
    if (n.m) h.push("<p>" + fmt(n.m) + " smaller sections are not drawn; a larger --max-nodes draws them.</p>");
    if (n.x) h.push("<p>" + fmt(n.x) + " sections below this one are not drawn.</p>");
    if (n.mk && n.mk.length) {
      h.push('<h3>Flagged pages</h3><ul class="flagged">');
      n.mk.forEach(function (m) { h.push("<li>" + link(m[0], m[1]) + ' <span class="mark ' + esc(m[2]) + '">' + esc(m[3]) + "</span></li>"); });
      h.push("</ul>");
      if ((n.fh || 0) > n.mk.length) h.push('<p class="meta">and ' + count(n.fh - n.mk.length, "more flagged page", "more flagged pages") + " in this section.</p>");
    }
    var pg = n.pg || [], marked = n.mk && n.mk.length;
    if (pg.length) {
      if (marked) h.push("<h3>Pages</h3>");
      h.push('<ul class="pages">');
      pg.forEach(function (p) { h.push("<li>" + link(p[0], p[1]) + (p[2] ? ' <span class="meta">' + esc(p[2]) + "</span>" : "") + "</li>"); });
      h.push("</ul>");
      if ((n.h || 0) > pg.length) h.push('<p class="meta">and ' + fmt(n.h - pg.length) + " more pages in this section.</p>");
    } else if (!n.m && !marked) {
      h.push('<p class="meta">No page in this section itself; open it to see the sections below.</p>');
    }
    pBody.innerHTML = h.join("");
  }
  function link(loc, title) {
    var text = hl(title || loc);
    return isHTTP(loc) ? '<a href="' + esc(loc) + '">' + text + "</a>" : text;
  }
  // hl escapes s with the matches of the search marked.
  function hl(s) {
    s = String(s);
    if (!query) return esc(s);
    var low = s.toLowerCase(), out = "", at = 0, i;
    while ((i = low.indexOf(query, at)) >= 0) {
      out += esc(s.slice(at, i)) + "<mark>" + esc(s.slice(i, i + query.length)) + "</mark>";
      at = i + query.length;
    }
    return out + esc(s.slice(at));
  }

  function act(i) {
    var n = N[i];
    if (n.c.length && !match) n.open = !n.open;
    select(i);
    render();
    var g = gNodes.querySelector('[data-id="' + i + '"]');
    if (g) g.focus({ preventScroll: true });
  }

  // Events.
  var drag = null, moved = false;
  map.addEventListener("pointerdown", function (e) { drag = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y }; moved = false; });
  window.addEventListener("pointermove", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) { moved = true; map.classList.add("drag"); }
    if (moved) { view.x = drag.vx + dx; view.y = drag.vy + dy; apply(); }
  });
  window.addEventListener("pointerup", function () { drag = null; map.classList.remove("drag"); });
  map.addEventListener("wheel", function (e) {
    e.preventDefault();
    var r = map.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  gNodes.addEventListener("click", function (e) {
    var g = e.target.closest("g.node");
    if (g && !moved) act(+g.getAttribute("data-id"));
  });
  gNodes.addEventListener("keydown", function (e) {
    var g = e.target.closest("g.node");
    if (g && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); act(+g.getAttribute("data-id")); }
  });
  map.addEventListener("keydown", function (e) {
    var step = 60;
    if (e.key === "ArrowLeft") view.x += step; else if (e.key === "ArrowRight") view.x -= step;
    else if (e.key === "ArrowUp") view.y += step; else if (e.key === "ArrowDown") view.y -= step;
    else if (e.key === "+" || e.key === "=") return zoom(1.25);
    else if (e.key === "-") return zoom(0.8);
    else return;
    e.preventDefault();
    apply();
  });
  var timer = 0;
  q.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(search, N.length > 500 ? 150 : 0); });
  document.getElementById("expand").addEventListener("click", function () { N.forEach(function (n) { if (n.c.length) n.open = true; }); render(); fit(); });
  document.getElementById("collapse").addEventListener("click", function () { N.forEach(function (n, i) { n.open = i === 0; }); render(); fit(); });
  document.getElementById("zoomin").addEventListener("click", function () { zoom(1.25); });
  document.getElementById("zoomout").addEventListener("click", function () { zoom(0.8); });
  document.getElementById("fit").addEventListener("click", fit);

  render();
  fit();
  window.sitemapMap = { script: T0, parsed: T1, ready: performance.now(), visible: function () { return render.visible; }, view: view };
  document.body.setAttribute("data-ready", "1");
})();
