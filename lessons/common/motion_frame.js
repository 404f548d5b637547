// γ in motion's frame follower (lessons/common/motion.py): tells Python which frame the
// animated chart shows, so that "Use this γ" takes the frame on screen. Mounted by
// st.components.v2 in the page itself (no iframe); draws nothing. It finds the chart in
// its box (the container `data.box`, a Streamlit key class), listens to Plotly's slider
// and to the start and end of an animation, and sends the label of the frame that stays
// on screen (never one passing by while playing: a rerun would stop the animation) as the
// trigger `frame`. A chart redrawn by a rerun is a new element: the follower looks for
// it again.
const FOLLOWERS = new WeakMap();
const SETTLE_MS = 150; // after an animation stops: the slider has caught up
const LOOK_MS = 400; // how often to look for a redrawn chart

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let follower = FOLLOWERS.get(parentElement);
  if (!follower) {
    follower = follow();
    FOLLOWERS.set(parentElement, follower);
  }
  follower.send = setTriggerValue;
  follower.update(data || {});
  return () => {
    follower.stop();
    FOLLOWERS.delete(parentElement);
  };
}

function follow() {
  const state = { box: "", shown: null, chart: null, timer: null, playing: false };
  const follower = { send: null };

  const frameOf = (chart) => {
    const sliders = (chart && chart._fullLayout && chart._fullLayout.sliders) || [];
    const slider = sliders[0];
    if (!slider || !slider.steps) return null;
    const step = slider.steps[slider.active];
    return step ? step.label : null;
  };
  const report = () => {
    clearTimeout(state.timer);
    if (state.playing) return; // only a frame that stays on screen is reported
    const label = frameOf(state.chart);
    if (label === null || label === state.shown || !follower.send) return;
    state.shown = label;
    follower.send("frame", label);
  };
  const settle = () => {
    clearTimeout(state.timer);
    state.timer = setTimeout(report, SETTLE_MS);
  };
  const attach = () => {
    const box = state.box && document.querySelector(`.${CSS.escape(state.box)}`);
    const chart = box && box.querySelector(".js-plotly-plot");
    if (!chart || chart === state.chart || typeof chart.on !== "function") return;
    state.chart = chart;
    state.playing = false;
    // Play starts an animation and the slider follows every frame; Pause interrupts
    // it, the last frame ends it: then the frame on screen is reported. A click or a
    // drag on the slider moves it with an interaction: reported at once.
    chart.on("plotly_animating", () => {
      state.playing = true;
      clearTimeout(state.timer);
    });
    const stopped = () => {
      state.playing = false;
      settle();
    };
    chart.on("plotly_animated", stopped);
    chart.on("plotly_animationinterrupted", stopped);
    chart.on("plotly_sliderchange", (event) => {
      if (event && event.interaction) report();
      else if (!state.playing) settle();
    });
  };
  const looking = setInterval(attach, LOOK_MS);

  follower.update = (data) => {
    state.box = String(data.box || "");
    if (typeof data.frame === "string") state.shown = data.frame;
    attach();
  };
  follower.stop = () => {
    clearInterval(looking);
    clearTimeout(state.timer);
  };
  return follower;
}
