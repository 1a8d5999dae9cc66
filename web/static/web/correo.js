// Deadline countdowns and the replay slider's readout. Everything else on the
// pages is plain HTML forms (htmx makes them partial updates).
(function () {
  "use strict";

  function remaining(ms) {
    if (ms <= 0) return "time is up";
    var s = Math.floor(ms / 1000);
    var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
    var m = Math.floor((s % 3600) / 60), sec = s % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return (d ? d + "d " : "") + pad(h) + ":" + pad(m) + ":" + pad(sec) + " left";
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("time.countdown").forEach(function (el) {
      var at = Date.parse(el.getAttribute("datetime"));
      if (!isNaN(at)) {
        el.textContent = remaining(at - now);
        el.title = new Date(at).toLocaleString();
      }
    });
  }

  document.addEventListener("input", function (event) {
    if (event.target.id === "replay-at") {
      var out = document.querySelector("output[for=replay-at]");
      if (out) out.textContent = event.target.value + " / " + event.target.max;
    }
  });

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();
