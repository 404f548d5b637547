/* The offline lecture: draws one step at one slider value from the frames computed when
   the file was built (lecture_pack/build.py). No request leaves the page. */
"use strict";
(function () {
  const begun = performance.now();  // Plotly's library has been parsed and run by now
  const pack = JSON.parse(document.getElementById("pack").textContent);
  const parsed = performance.now();
  const $ = (id) => document.getElementById(id);
  const steps = pack.steps;
  // The file's own words, in the language it was built in (lecture_pack/html.py, words_of_the_file()):
  // "{name}" filled by fill().
  const W = pack.words;
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (whole, name) => name in values ? String(values[name]) : whole);
  const pageName = (page) => W.page_names[page] || page.replace(/_/g, " ");
  const touch = window.matchMedia("(pointer: coarse)").matches;
  const state = { step: 0, frame: steps[0].anchor, revealed: new Set(), chosen: {} };
  // Milliseconds from the navigation to: this script's start, the frames parsed (the
  // benchmark reads them, and firstDrawnMs, set once the first step is drawn).
  window.lecture = { pack, state, drawn: "", marks: { scriptStart: begun, parsed: parsed } };

  function escape(text) {
    return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  }
  function markdown(text) {  // the sentences' only markup: **bold** and `code`
    return escape(text).replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>").replace(/`([^`]+)`/g, "<code>$1</code>");
  }

  function theme() {
    const chosen = document.documentElement.dataset.theme;
    if (chosen) return chosen;
    return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  function colours() {
    const css = getComputedStyle(document.documentElement);
    return { fg: css.getPropertyValue("--fg").trim(), grid: css.getPropertyValue("--grid").trim(),
             line: css.getPropertyValue("--line").trim() };
  }

  // A phone: legends under the plots, titles wrapped, the page's font sizes (themed).
  function phone() { return window.innerWidth < 700; }
  // A title's lines wrapped at spaces to ``width`` pixels at ``size`` (about 0.56 em a
  // character); a line with both markup and wide characters in it is kept whole.
  // Chinese (and other wide) characters: about 1 em each, and a line may break between
  // any two of them; other words keep their spaces and break only at them.
  const WIDE = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/;
  const WIDE_OR_WORD = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+|\s+/g;
  const widthOf = (s) => Array.from(s).reduce((n, c) => n + (WIDE.test(c) ? 1.8 : 1), 0);
  function wrapWide(line, most) {
    const out = [];
    let current = "", space = false;
    for (const token of line.match(WIDE_OR_WORD) || []) {
      if (/^\s+$/.test(token)) { space = true; continue; }
      const joined = current + (space && current ? " " : "") + token;
      if (current && widthOf(joined) > most && !/^[，。；：、）》」』！？,.;:)]/.test(token)) { out.push(current); current = token; }
      else current = joined;
      space = false;
    }
    if (current) out.push(current);
    return out;
  }
  // A line's words (a tag stays whole with the word it touches), how wide each shows, and
  // the lines' tags balanced: a bold run broken across lines is closed at the end of one
  // and opened again at the start of the next.
  const WORD = /(?:<[^>]*>|[^\s<])+/g;
  const TAG = /<(\/?)(\w+)[^>]*>/g;
  const shown = (word) => word.replace(TAG, "").length;
  function balanced(lines) {
    const open = [];  // the tags open at a line's end: [name, the tag as written]
    return lines.map((line) => {
      const opened = open.map(([, raw]) => raw).join("") + line;
      for (const [raw, closing, name] of line.matchAll(TAG)) {
        if (!closing) open.push([name, raw]);
        else if (open.length && open[open.length - 1][0] === name) open.pop();
      }
      return opened + open.map(([name]) => "</" + name + ">").reverse().join("");
    });
  }
  // ``least``: the fewest characters a line is given (a chart's title, 16; a panel's, fewer:
  // at 16 two neighbours' titles ran into each other on step 5).
  function wrapTitle(text, width, size, least = 16) {
    const most = Math.max(least, Math.floor(width / (size * 0.56)));
    return text.split(/<br\s*\/?>/i).flatMap((line) => {
      if (WIDE.test(line)) return /</.test(line) ? [line] : wrapWide(line, most);
      if (shown(line) <= most) return [line];
      const out = [];
      let current = "";
      for (const word of line.match(WORD) || []) {
        if (current && shown(current + " " + word) > most) { out.push(current); current = word; }
        else current = current ? current + " " + word : word;
      }
      if (current) out.push(current);
      return balanced(out);
    }).join("<br>");
  }
  // A lesson's own figure (its data and layout as the page builds them), in the file's
  // styling: the theme's colours, transparent backgrounds, the box's size, no dragging.
  function themed(source) {
    const c = colours();
    const out = JSON.parse(JSON.stringify(source));
    delete out.height; delete out.width;
    out.autosize = true;
    out.paper_bgcolor = "rgba(0,0,0,0)"; out.plot_bgcolor = "rgba(0,0,0,0)";
    out.font = Object.assign({}, out.font || {}, { color: c.fg, family: "system-ui, sans-serif" });
    out.colorway = pack.palette;
    out.dragmode = false;
    out.legend = Object.assign({}, out.legend || {}, { bgcolor: "rgba(0,0,0,0)" });
    // A legend under the plot sits at the box's foot, with the plot's room made above it:
    // placed at a share of the plot's height, it ran into the x-axis's title in a box
    // lower than the page's.
    if (out.legend.orientation === "h" && (out.legend.y ?? 1) < 0) Object.assign(out.legend, { yref: "container", y: 0, yanchor: "bottom" });
    // On a phone a legend beside the plot takes half its width: under it instead, at the
    // box's foot (a share of a phone's short plot under it touched the x-axis's title). One
    // the page puts inside a panel (anchored by its right edge at x ≤ 1) stays there.
    const inside = out.legend.xanchor === "right" && (out.legend.x ?? 1.02) <= 1;
    if (phone() && out.legend.orientation !== "h" && !inside) Object.assign(out.legend, { orientation: "h", x: 0, xanchor: "left", yref: "container", y: 0, yanchor: "bottom" });
    // Its title above its entries: beside them Plotly leaves it out when it wraps them into
    // rows, and step 6's last entry ran off the box.
    if (phone() && out.legend.orientation === "h" && out.legend.title && out.legend.title.text) out.legend.title = Object.assign({}, out.legend.title, { side: "top left" });
    if (out.title) {
      const size = phone() ? 13 : 16;
      out.title = Object.assign({}, out.title, { font: { size: size } });
      if (phone() && out.title.text) {  // a phone's chart is narrower than the page's: wrap
        // At the box's top, with the page's room under it kept and a line more for each
        // wrapped one: a text the page puts above the plot (step 5's "best γ") stays clear of it.
        const text = wrapTitle(out.title.text, window.innerWidth - 60, size);
        const more = text.split("<br>").length - out.title.text.split(/<br\s*\/?>/i).length;
        const line = Math.round(size * 1.35);
        Object.assign(out.title, { text: text, yref: "container", y: 1, yanchor: "top", pad: { t: 14 } });
        out.margin = Object.assign({}, out.margin || {});
        // At least its first line under its pad; 100: Plotly's default.
        out.margin.t = Math.max(out.margin.t ?? 100, line + 20) + more * line;
      }
    }
    // Room for tick labels and axis titles, except on panels drawn to an equal scale (maps,
    // sweeps): a margin grown for the first panel alone would narrow it. A figure of one
    // panel (a digit mosaic's row labels) has no other to narrow.
    const axes = Object.keys(out).filter((key) => /^[xy]axis\d*$/.test(key));
    const single = axes.every((key) => /^[xy]axis$/.test(key));
    for (const key of axes) {
      const axis = out[key];
      Object.assign(axis, { gridcolor: c.grid, linecolor: c.line, zerolinecolor: c.line });
      if (single || (!axis.scaleanchor && !axis.constrain)) axis.automargin = true;
      // A grid of panels drawn smaller than on the page: fewer ticks, level, so that a
      // panel's labels neither turn on end nor run into the legend under the grid.
      if (!single) Object.assign(axis, { nticks: 3, tickangle: 0 });
    }
    if (out.scene) {  // a 3-D view: its three axes in the theme's colours
      out.scene = Object.assign({}, out.scene, { bgcolor: "rgba(0,0,0,0)" });
      for (const a of ["xaxis", "yaxis", "zaxis"]) {
        out.scene[a] = Object.assign({}, out.scene[a] || {}, { gridcolor: c.grid, linecolor: c.line, zerolinecolor: c.line,
          backgroundcolor: "rgba(0,0,0,0)" });
      }
    }
    for (const note of out.annotations || []) note.font = Object.assign({}, note.font || {}, { color: c.fg });
    if (phone()) wrapPanelTitles(out);
    if (!phone()) readableFromTheBack(out);
    return out;
  }

  // A phone's panels are narrower than the page's: a panel's title (a subplot title, an
  // annotation standing on the top of its panel) wrapped to the panel's width, so that two
  // side by side neither overlap nor run off the chart, with room above for its lines.
  function wrapPanelTitles(layout) {
    const domains = Object.keys(layout).filter((key) => /^xaxis\d*$/.test(key))
      .map((key) => layout[key].domain || [0, 1]);
    let grown = 0;
    for (const note of layout.annotations || []) {
      if (note.xref !== "paper" || note.yanchor !== "bottom" || typeof note.text !== "string") continue;
      const [from, to] = domains.find(([a, b]) => a <= note.x && note.x <= b) || [0, 1];
      const size = (note.font && note.font.size) || 12;
      note.text = wrapTitle(note.text, (window.innerWidth - 60) * (to - from), size, 6);
      grown = Math.max(grown, (note.text.split("<br>").length - 1) * Math.round(size * 1.35));
    }
    if (grown) {
      layout.margin = Object.assign({}, layout.margin || {});
      layout.margin.t = (layout.margin.t ?? 100) + grown;  // 100: Plotly's default
    }
  }

  // Projector-sized text: no chart label under LEAST_FONT pixels (the app's panels title
  // their grids in 12 px, too small from the back of a room); a phone keeps the page's sizes.
  // A size the figure leaves out inherits the layout's font, which is raised too; a
  // subtitle written as a second line in <sup> (70 % of its title) gets LEAST_FONT itself.
  const LEAST_FONT = 14;
  const FONT_KEYS = new Set(["font", "tickfont", "textfont", "insidetextfont", "outsidetextfont"]);
  const SUBTITLE = /<br>\s*<sup>(.*?)<\/sup>/gi;
  const INLINE_SIZE = /font-size:\s*(\d+(?:\.\d+)?)px/g;  // a second line's own size (the Explorer's titles)
  function readableFromTheBack(layout) {
    layout.font = Object.assign({}, layout.font || {});
    layout.font.size = Math.max(layout.font.size || 12, LEAST_FONT);  // 12: Plotly's default
    const raise = (node) => {
      if (Array.isArray(node)) { node.forEach(raise); return; }
      if (!node || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) {
        if (FONT_KEYS.has(key) && value && typeof value.size === "number") value.size = Math.max(value.size, LEAST_FONT);
        else if (key === "text" && typeof value === "string") node.text = value.replace(SUBTITLE, `<br><span style="font-size:${LEAST_FONT}px">$1</span>`)
          .replace(INLINE_SIZE, (whole, size) => `font-size:${Math.max(Number(size), LEAST_FONT)}px`);
        else if (value && typeof value === "object") raise(value);
      }
    };
    const title = layout.title && layout.title.text;
    raise(layout);
    if (layout.title && layout.title.text !== title) {
      // Its subtitle grew, and so did the panels' titles under it: the title at the box's
      // top, and a line more of room between it and the plots.
      // (24 px of padding: measured in Chromium to leave about 10 px above its first line.)
      Object.assign(layout.title, { yref: "container", y: 1, yanchor: "top", pad: { t: 24 } });
      layout.margin = Object.assign({}, layout.margin || {});
      layout.margin.t = (layout.margin.t ?? 100) + LEAST_FONT;  // 100: Plotly's default
    }
  }
  const TALL = 480;  // a figure the page draws taller than this gets a taller box (panels)

  // Every step's figures are its page's own (lecture_pack/build.py); traces are stored once
  // a step (frames share those that do not change) and Plotly gets its own copy of each.
  // A figure with a wide variant (a grid of panels in one row) draws it on a wide screen.
  function charts(step, frame) {
    return frame.figures.map((entry) => {
      const f = entry.wide && !phone() ? entry.wide : entry;
      const layout = themed(f.layout);
      const data = f.data.map((i) => JSON.parse(JSON.stringify(step.traces[i])));
      if (phone()) wrapLegendNames(data, layout);
      return [entry.id, data, layout, (f.layout.height || 0) > TALL];
    });
  }
  // A phone's legend is as wide as the chart at most: an entry's name longer than that
  // (step 10's "K (build; centring works in place, adds nothing)") wrapped beside its
  // symbol (about 40 px), since Plotly never breaks one.
  function wrapLegendNames(data, layout) {
    const size = (layout.legend.font && layout.legend.font.size) || layout.font.size || 12;
    for (const trace of data) {
      if (typeof trace.name === "string" && trace.showlegend !== false) trace.name = wrapTitle(trace.name, window.innerWidth - 100, size);
    }
  }
  // On a phone the box of a chart with its legend at the box's foot grows by the legend's
  // height: a legend of six entries left a plot of 100 px, shorter than its y-axis's title
  // (step 5). Elsewhere the box is the style sheet's.
  function roomForLegend(div, layout) {
    const legend = div.querySelector("g.legend");
    const atFoot = phone() && legend && layout.legend.yref === "container" && layout.legend.y === 0;
    const before = div.style.height;
    div.style.height = "";
    div.style.height = atFoot ? Math.round(div.clientHeight + legend.getBBox().height) + "px" : "";
    return div.style.height === before ? null : Plotly.Plots.resize(div);
  }

  // On a projector the step's charts fit the screen's room under its question and slider
  // (a chart below the fold is one the room does not see): --room is the height between
  // the charts' top and the Back/Next bar. A phone scrolls instead (lecture.css).
  function fitRoom() {
    const top = $("charts").getBoundingClientRect().top + window.scrollY;
    const bar = document.querySelector(".steps").offsetHeight;
    document.documentElement.style.setProperty("--room", Math.max(0, window.innerHeight - top - bar - 10) + "px");
  }
  // Registered before any chart's: Plotly's own resize (config.responsive) then reads the new room.
  window.addEventListener("resize", fitRoom);

  function draw() {
    const step = steps[state.step], frame = step.frames[state.frame];
    const holder = $("charts");
    fitRoom();
    const wanted = charts(step, frame);
    const ids = wanted.map((c) => c[0]).join(",");
    if (holder.dataset.ids !== ids) {  // another set of charts: new places for them
      for (const old of holder.querySelectorAll(".chart")) Plotly.purge(old);
      holder.innerHTML = "";
      for (const [id, , , tall] of wanted) {
        const div = document.createElement("div");
        div.className = tall ? "chart tall" : "chart"; div.id = "chart-" + id; div.setAttribute("role", "img");
        holder.appendChild(div);
      }
      holder.dataset.ids = ids;
    }
    const config = { displayModeBar: false, responsive: true, staticPlot: touch, scrollZoom: false };
    const key = state.step + ":" + state.frame + ":" + theme();
    window.lecture.drawn = "";
    Promise.all(wanted.map(([id, data, lay]) => {
      const div = $("chart-" + id);
      div.setAttribute("aria-label", (lay.title && lay.title.text) || id);
      return Plotly.react(div, data, lay, config).then(() => roomForLegend(div, lay));
    })).then(() => {
      if (key === state.step + ":" + state.frame + ":" + theme()) window.lecture.drawn = key;
      // Milliseconds from the navigation to the first step drawn (the benchmark reads it).
      if (window.lecture.firstDrawnMs === undefined) window.lecture.firstDrawnMs = performance.now();
    });
  }

  function words() {
    const step = steps[state.step], frame = step.frames[state.frame];
    // The page's own sentences carry its numbers.
    $("sentences").innerHTML = frame.sentences.map((s) => "<p>" + markdown(s) + "</p>").join("");
    const revealed = state.revealed.has(state.step);
    const question = frame.question;
    const options = $("options");
    options.innerHTML = "";
    const verdicts = document.createElement("ul");
    verdicts.className = "verdicts";
    if (question) {
      question.texts.forEach((text, i) => {
        const b = document.createElement("button");
        b.type = "button"; b.textContent = text; b.dataset.option = i;
        if (state.chosen[state.step] === i) b.classList.add("chosen");
        if (revealed) {
          b.classList.add(question.right[i] ? "right" : "wrong");
          b.textContent = (question.right[i] ? "✓ " : "✗ ") + text;
        }
        b.setAttribute("aria-pressed", String(state.chosen[state.step] === i));
        b.addEventListener("click", () => { state.chosen[state.step] = i; reveal(); });
        options.appendChild(b);
        if (revealed) {
          const li = document.createElement("li");
          li.className = question.right[i] ? "right" : "wrong";
          li.textContent = text + " — " + question.why[i];
          verdicts.appendChild(li);
        }
      });
    }
    $("verdicts").replaceChildren(...verdicts.childNodes);
    $("check").textContent = question ? step.check : W.no_question;
    $("reveal").hidden = revealed;
    $("answer").hidden = !revealed;
    const differs = frame.differs.length > 0;
    $("look").textContent = differs ? fill(W.at_own, { look_for: step.look_for }) : step.look_for;
    $("differs").textContent = differs ? fill(W.differs, { changes: frame.differs.join("; ") }) : "";
    $("view-link").href = frame.links.view;
    $("tour-link").href = frame.links.tour;
    $("value").textContent = step.labels[state.frame];
  }

  // After an answer, its explanation and "What to look for" come on screen: they sit under
  // the charts, and at 1280 × 720 only the ✓ and ✗ on the buttons were in view. The page
  // scrolls as little as shows the whole section above the Back/Next bar (its top, when it
  // is taller than that).
  function bringIntoView(section) {
    const box = section.getBoundingClientRect();
    const floor = document.querySelector(".steps").getBoundingClientRect().top - 8;
    if (box.top >= 0 && box.bottom <= floor) return;
    window.scrollBy(0, box.height <= floor ? box.bottom - floor : box.top - 8);
  }

  function reveal() {
    state.revealed.add(state.step);
    words();
    bringIntoView($("answer"));
  }

  function showStep(index, frame) {
    const before = state.step;
    state.step = Math.max(0, Math.min(steps.length - 1, index));
    if (state.step !== before) window.scrollTo(0, 0);  // a new step starts at its question
    const step = steps[state.step];
    state.frame = frame === undefined ? step.anchor : Math.max(0, Math.min(step.frames.length - 1, frame));
    $("where").textContent = fill(W.where, { number: step.number, count: steps.length, minutes: step.minutes, page: pageName(step.page) });
    $("title").textContent = step.title;
    $("ask").textContent = step.question;
    $("settings").textContent = fill(W.settings, { settings: step.settings, version: pack.version });
    $("sampling").textContent = fill(W.lesson_charts, { page: pageName(step.page) });
    const slider = $("slider");
    const control = $("control");
    if (step.param) {
      control.hidden = false;
      slider.max = String(step.frames.length - 1);
      slider.value = String(state.frame);
      $("slider-label").textContent = step.param === "gamma" ? W.gamma_label : W.degree_label;
      slider.setAttribute("aria-valuetext", step.labels[state.frame]);
      $("slider-low").textContent = step.labels[0].split(" = ")[1];
      $("slider-high").textContent = step.labels[step.labels.length - 1].split(" = ")[1];
      $("slider-note").textContent = [step.slider_note, fill(W.slider_note, { count: step.frames.length, low: step.labels[0],
        high: step.labels[step.labels.length - 1], own: step.labels[step.anchor] })].filter((s) => s).join(" ");
    } else {
      control.hidden = true;
      $("slider-note").textContent = step.slider_note;
    }
    $("back").disabled = state.step === 0;
    $("next").disabled = state.step === steps.length - 1;
    // After the last step: the part of the tour the file does not hold, and where it is.
    $("left-out").hidden = !pack.left_out || state.step !== steps.length - 1;
    $("count").textContent = step.number + " / " + steps.length;
    for (const b of $("dots").children) b.toggleAttribute("aria-current", false);
    $("dots").children[state.step].setAttribute("aria-current", "step");
    history.replaceState(null, "", "#step=" + (state.step + 1));
    words();
    draw();
  }

  function setFrame(i) {
    const step = steps[state.step];
    state.frame = Math.max(0, Math.min(step.frames.length - 1, i));
    $("slider").setAttribute("aria-valuetext", step.labels[state.frame]);
    words();
    draw();
  }

  steps.forEach((step, i) => {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = String(step.number);
    b.title = step.title; b.setAttribute("aria-label", fill(W.step_label, { number: step.number, title: step.title }));
    b.addEventListener("click", () => showStep(i));
    $("dots").appendChild(b);
  });
  $("version").textContent = pack.version;
  if (pack.left_out) {
    const link = document.createElement("a");
    link.href = pack.left_out.href; link.textContent = pack.left_out.link;
    $("left-out").replaceChildren(pack.left_out.text + " ", link);
  }
  $("back").addEventListener("click", () => showStep(state.step - 1));
  $("next").addEventListener("click", () => showStep(state.step + 1));
  $("reveal").addEventListener("click", reveal);
  $("slider").addEventListener("input", (e) => setFrame(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    // A presenter's clicker sends PageDown and PageUp: the next or previous step, never a
    // scroll, also while the slider has the focus (where they would move γ).
    if (e.key === "PageDown" || e.key === "PageUp") {
      e.preventDefault();
      showStep(state.step + (e.key === "PageDown" ? 1 : -1));
      return;
    }
    if (e.target && e.target.tagName === "INPUT") return;  // the slider's own arrows
    if (e.key === "ArrowRight") showStep(state.step + 1);
    else if (e.key === "ArrowLeft") showStep(state.step - 1);
  });
  function themeLabel() { $("theme").querySelector("span").textContent = theme() === "dark" ? W.light : W.dark; }
  $("theme").addEventListener("click", () => {
    document.documentElement.dataset.theme = theme() === "dark" ? "light" : "dark";
    themeLabel(); draw();
  });
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => { themeLabel(); draw(); });
  themeLabel();
  window.lecture.show = showStep;
  window.lecture.setFrame = setFrame;
  const asked = /step=(\d+)/.exec(location.hash);
  showStep(asked ? Number(asked[1]) - 1 : 0);
})();
