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
  function markdown(text) {  // the sentences' only markup: **bold**
    return escape(text).replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>");
  }
  const pct = (v, digits) => (v === null || v === undefined || !isFinite(v)) ? "—" : (100 * v).toFixed(digits) + "\u00a0%";

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

  // Where the legend goes: beside the title (a few classes on a wide screen), down the right
  // (many classes on a wide screen), or under the chart (a phone: no x-axis title there,
  // the chart's title names the axes).
  function phone() { return window.innerWidth < 700; }
  // A title's lines wrapped at spaces to ``width`` pixels at ``size`` (about 0.56 em a
  // character); a line with markup in it is kept whole.
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
  function wrapTitle(text, width, size) {
    const most = Math.max(16, Math.floor(width / (size * 0.56)));
    return text.split(/<br\s*\/?>/i).flatMap((line) => {
      if (/</.test(line)) return [line];
      if (WIDE.test(line)) return wrapWide(line, most);
      if (line.length <= most) return [line];
      const out = [];
      let current = "";
      for (const word of line.split(" ")) {
        if (current && (current + " " + word).length > most) { out.push(current); current = word; }
        else current = current ? current + " " + word : word;
      }
      if (current) out.push(current);
      return out;
    }).join("<br>");
  }
  function legendPlace() {
    if (phone()) return { orientation: "h", x: 0, y: -0.12, yanchor: "top" };
    if (steps[state.step].classes.length > 3) return { orientation: "v", x: 1.02, y: 1, yanchor: "top" };
    return { orientation: "h", x: 1, xanchor: "right", y: 1.02, yanchor: "bottom" };
  }
  function layout(title, extra) {
    const c = colours();
    const axis = { gridcolor: c.grid, zerolinecolor: c.line, linecolor: c.line, automargin: true };
    extra = extra || {};
    const out = Object.assign({
      title: { text: title, font: { size: phone() ? 14 : 17 }, x: 0.02, xanchor: "left" },
      paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)",
      font: { color: c.fg, size: 15, family: "system-ui, sans-serif" },
      margin: { l: 55, r: 15, t: 40, b: phone() ? 75 : 45 }, dragmode: false, hovermode: "closest",
      legend: Object.assign({ bgcolor: "rgba(0,0,0,0)" }, legendPlace()),
    }, extra);
    out.xaxis = Object.assign({}, axis, extra.xaxis || {});  // the theme's colours kept
    if (phone() && out.showlegend !== false) delete out.xaxis.title;
    out.yaxis = Object.assign({}, axis, extra.yaxis || {});
    return out;
  }

  function scatter(step, coords, name) {
    return step.classes.map((label, c) => {
      const rows = step.y.map((v, i) => v === c ? i : -1).filter((i) => i >= 0);
      return { type: "scatter", mode: "markers", name: label,
               x: rows.map((i) => coords[0][i]), y: rows.map((i) => coords[1] ? coords[1][i] : 0),
               marker: { size: 7, color: pack.palette[c % pack.palette.length],
                         symbol: ["circle", "square", "diamond", "triangle-up", "x"][c % 5] },
               hovertemplate: label + "<extra>" + name + "</extra>" };
    });
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
    // On a phone a legend beside the plot takes half its width: under it instead.
    if (phone() && out.legend.orientation !== "h") Object.assign(out.legend, { orientation: "h", x: 0, xanchor: "left", y: -0.3, yanchor: "top" });
    if (out.title) {
      const size = phone() ? 13 : 16;
      out.title = Object.assign({}, out.title, { font: { size: size } });
      if (phone() && out.title.text) {  // a phone's chart is narrower than the page's: wrap
        const text = wrapTitle(out.title.text, window.innerWidth - 60, size);
        const lines = text.split("<br>").length;
        out.title.text = text;
        out.margin = Object.assign({}, out.margin || {});
        out.margin.t = Math.max(out.margin.t || 0, Math.round(lines * size * 1.35 + 16));
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
    if (!phone()) readableFromTheBack(out);
    return out;
  }

  // Projector-sized text: no chart label under LEAST_FONT pixels (the app's panels title
  // their grids in 12 px, too small from the back of a room); a phone keeps the page's sizes.
  // A size the figure leaves out inherits the layout's font, which is raised too; a
  // subtitle written as a second line in <sup> (70 % of its title) gets LEAST_FONT itself.
  const LEAST_FONT = 14;
  const FONT_KEYS = new Set(["font", "tickfont", "textfont", "insidetextfont", "outsidetextfont"]);
  const SUBTITLE = /<br>\s*<sup>(.*?)<\/sup>/gi;
  function readableFromTheBack(layout) {
    layout.font = Object.assign({}, layout.font || {});
    layout.font.size = Math.max(layout.font.size || 12, LEAST_FONT);  // 12: Plotly's default
    const raise = (node) => {
      if (Array.isArray(node)) { node.forEach(raise); return; }
      if (!node || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) {
        if (FONT_KEYS.has(key) && value && typeof value.size === "number") value.size = Math.max(value.size, LEAST_FONT);
        else if (key === "text" && typeof value === "string") node.text = value.replace(SUBTITLE, `<br><span style="font-size:${LEAST_FONT}px">$1</span>`);
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

  function charts(step, frame) {
    if (frame.figures) {
      // Traces are stored once a step (frames share those that do not change); Plotly
      // gets its own copy of each.
      // A figure with a wide variant (a grid of panels in one row) draws it on a wide screen.
      return frame.figures.map((entry) => {
        const f = entry.wide && !phone() ? entry.wide : entry;
        return [entry.id, f.data.map((i) => JSON.parse(JSON.stringify(step.traces[i]))),
          themed(f.layout), (f.layout.height || 0) > TALL];
      });
    }
    // The Explorer's steps: charts laid out here from the numbers the build computed with
    // the page's own functions (lecture_pack/build.py, build_step, says why these are not
    // yet the page's own figures, as the other steps' are). Nothing here computes a number:
    // the points are the build's sample, split by class; a missing share is drawn as 0.
    const label = step.labels[state.frame];
    const kpcaTitle = label ? fill(W.kpca_title_at, { value: label }) : W.kpca_title;
    const axes = { xaxis: { title: { text: W.component_1 } }, yaxis: { title: { text: W.component_2 } } };
    const list = [
      ["kpca", scatter(step, frame.kpca, W.kernel_pca), layout(kpcaTitle, axes)],
      ["pca", scatter(step, step.pca, W.linear_pca), layout(W.pca_title, axes)],
    ];
    if (frame.K) {
      const cells = { side: frame.points_per_cell };
      const heat = (z, title, extra) => [Object.assign({ type: "heatmap", z: z, hoverongaps: false,
        colorbar: { thickness: 12 } }, extra), layout(title, { yaxis: { autorange: "reversed", title: { text: W.by_class } },
        xaxis: { title: { text: W.by_class } }, margin: { l: 60, r: 10, t: 48, b: 45 } })];
      // As the app draws them, on its colour ranges: K from its smallest to its largest value,
      // K̃ symmetric about 0 (red above, blue below).
      const bound = frame.Kc_bound || 1;
      const k = heat(frame.K, fill(W.k_title, cells), { colorscale: pack.scales.K, zmin: frame.K_range[0], zmax: frame.K_range[1] });
      const kc = heat(frame.Kc, fill(W.kc_title, cells), { colorscale: pack.scales.Kc, zmid: 0, zmin: -bound, zmax: bound });
      list.push(["K", [k[0]], k[1]], ["Kc", [kc[0]], kc[1]]);
    }
    const spectrum = frame.spectrum.map((v) => v === null ? 0 : v);
    list.push(["spectrum", [{ type: "bar", x: spectrum.map((_, i) => i + 1), y: spectrum,
      marker: { color: pack.palette[0] }, hovertemplate: W.spectrum_hover + "<extra></extra>" }],
      layout(W.spectrum_title, { xaxis: { title: { text: W.component }, dtick: 1 },
        yaxis: { title: { text: W.explained }, tickformat: ".0%", rangemode: "tozero" }, showlegend: false })]);
    return list;
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
      return Plotly.react(div, data, lay, config);
    })).then(() => {
      if (key === state.step + ":" + state.frame + ":" + theme()) window.lecture.drawn = key;
      // Milliseconds from the navigation to the first step drawn (the benchmark reads it).
      if (window.lecture.firstDrawnMs === undefined) window.lecture.firstDrawnMs = performance.now();
    });
  }

  function words() {
    const step = steps[state.step], frame = step.frames[state.frame];
    const n = frame.numbers;
    const parts = [];
    if (frame.figures) {
      // A lesson's page: its own sentences carry its numbers.
    } else if (n.separability !== null) {
      parts.push(fill(escape(W.separability), { kpca: "<b data-number=\"separability\">" + pct(n.separability, 0) + "</b>",
        linear: "<b data-number=\"linear\">" + pct(n.linear, 0) + "</b>" }));
    }
    if (!frame.figures) parts.push(fill(escape(W.explained_both), { first: "<b data-number=\"explained1\">" + pct(n.explained[0], 1) + "</b>",
      second: "<b data-number=\"explained2\">" + pct(n.explained[1], 1) + "</b>" }));
    $("numbers").innerHTML = parts.join(" · ");
    $("numbers").hidden = parts.length === 0;
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
    $("sampling").textContent = step.frames[0].figures ? fill(W.lesson_charts, { page: pageName(step.page) }) :
      [step.shown < step.n ? fill(W.sampled, { shown: step.shown, n: step.n }) : "",
       step.frames[0].K ? W.binned : "", fill(W.method, { method: pack.method })].filter((s) => s).join(" ");
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
      $("slider-note").textContent = [step.slider_note || "", fill(W.slider_note, { count: step.frames.length, low: step.labels[0],
        high: step.labels[step.labels.length - 1], own: step.labels[step.anchor] })].filter((s) => s).join(" ");
    } else {
      control.hidden = true;
      $("slider-note").textContent = step.slider_note || fill(W.no_slider, { kernel: step.kernel });
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
