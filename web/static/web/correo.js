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

  // After a move of mine the game is redrawn: focus goes to the message that
  // says how it went (or the game's heading), not back to the top of the page.
  // A redraw because someone else moved leaves focus alone and is announced.
  document.addEventListener("htmx:afterSwap", function (event) {
    var game = document.getElementById("game");
    if (!game) return;
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    var path = (event.detail.requestConfig && event.detail.requestConfig.path) || "";
    if (path.indexOf("/talk/") !== -1) {
      // The talk box: after sending, back to the box to write the next line;
      // a message from someone else is announced, focus left where it is.
      if (verb === "post") {
        // The words being typed are kept across redraws (hx-preserve), so
        // once sent they are cleared here; a refusal leaves them to mend.
        var box = document.getElementById("talk-text");
        var refused = document.querySelector("#talk .message.error");
        if (box && !refused && path.indexOf("/talk/mute/") === -1 && !/\/talk\/\d+\//.test(path)) {
          box.value = "";
        }
        if (box) box.focus();
      } else {
        var said = document.getElementById("talk-news");
        var last = document.querySelector("#talk-list li:last-child");
        if (said && last) said.textContent = "New message: " + last.textContent.trim();
      }
      return;
    }
    if (verb === "post") {
      var target = game.querySelector(".messages") || game.querySelector("h1");
      if (target) {
        target.setAttribute("tabindex", "-1");
        target.focus();
      }
    } else {
      var news = document.getElementById("game-news");
      if (news) news.textContent = "The game moved on (seq " + game.dataset.seq + ").";
    }
  });

  // The new-game form shows the options of the chosen title only (without
  // JavaScript every title's options show, and the others are ignored).
  function showOptions() {
    var title = document.getElementById("title");
    if (!title) return;
    document.querySelectorAll("fieldset.options[data-title]").forEach(function (set) {
      set.hidden = set.dataset.title !== title.value;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.id === "title") showOptions();
  });
  document.addEventListener("DOMContentLoaded", showOptions);

  // A table's link: copied with one press (the field stays selectable by
  // hand where the clipboard is not offered).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.copy");
    if (!button) return;
    var field = document.getElementById(button.dataset.copy);
    if (!field) return;
    field.select();
    var done = function () { button.textContent = "Copied"; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(done, function () {});
    }
  });

  // The board's pickers (boards/_controls.html): a move made of several
  // picks.  A pick button toggles (aria-pressed); in a slotted group it
  // replaces the group's earlier pick, else the oldest pick goes when one
  // too many is pressed.  The send buttons whose key is the pressed picks,
  // in the order drawn, are shown: each says the move in the mail's words.
  function pressed(form) {
    return Array.prototype.filter.call(form.querySelectorAll("button[data-pick]"), function (b) {
      return b.getAttribute("aria-pressed") === "true";
    });
  }
  function showSends(form) {
    var picks = pressed(form);
    var key = picks.map(function (b) { return b.dataset.pick; }).join(" ");
    var need = Number(form.dataset.need) || 1;
    var shown = 0;
    form.querySelectorAll("button[data-key]").forEach(function (send) {
      send.hidden = picks.length !== need || send.dataset.key !== key;
      if (!send.hidden) shown += 1;
    });
    var preview = form.querySelector(".picker-preview");
    if (!preview) return;
    if (picks.length < need) {
      preview.textContent = picks.length ? "Picked: " + picks.map(function (b) {
        return b.querySelector(".cell-name").textContent.trim();
      }).join(", ") + ". " + preview.dataset.prompt : preview.dataset.prompt;
    } else if (!shown) {
      preview.textContent = "That is not a legal move: pick again.";
    } else {
      var sends = form.querySelectorAll("button[data-key]:not([hidden])");
      preview.textContent = shown === 1 ? sends[0].textContent.trim().replace(/^Send: /, "")
        : shown + " ways to pay: choose one below.";
    }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("form.picker button[data-pick]");
    if (!button) return;
    var form = button.closest("form.picker");
    var on = button.getAttribute("aria-pressed") !== "true";
    if (button.dataset.slot) {
      form.querySelectorAll('button[data-slot="' + button.dataset.slot + '"]').forEach(function (b) {
        b.setAttribute("aria-pressed", "false");
      });
    }
    button.setAttribute("aria-pressed", on ? "true" : "false");
    form._order = (form._order || []).filter(function (b) {
      return b !== button && b.getAttribute("aria-pressed") === "true";
    }).concat(on ? [button] : []);
    var need = Number(form.dataset.need) || 1;
    while (!button.dataset.slot && form._order.length > need) {
      form._order.shift().setAttribute("aria-pressed", "false");
    }
    showSends(form);
  });

  // Server push: the game's stream says only "the game is at seq S" (for a
  // spectator who sees it late, their own seq); the page then fetches its own
  // view as its poll would.  While the stream is open the 5-second polls are
  // left out; when it fails (or the server has none: 204) they carry on.
  var streaming = false;
  var posting = false;
  var waiting = 0;  // a seq announced while my own move was on its way

  function announce(seq) {
    var game = document.getElementById("game");
    if (!game || seq <= Number(game.dataset.seq)) return;
    if (posting) { waiting = Math.max(waiting, seq); return; }
    htmx.trigger(game, "correo:moved");
    var list = document.getElementById("talk-list");
    if (list) htmx.trigger(list, "correo:moved");
  }

  function listen() {
    var game = document.getElementById("game");
    if (!game || !game.dataset.stream || !window.EventSource) return;
    var source = new EventSource(game.dataset.stream);
    source.onopen = function () { streaming = true; };
    source.onmessage = function (event) {
      try { announce(JSON.parse(event.data).seq); } catch (e) { /* not ours */ }
    };
    source.onerror = function () {
      streaming = false;
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(listen, 60000);  // refused for now: poll, and try again later
      }
    };
  }
  document.addEventListener("DOMContentLoaded", listen);

  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig || {};
    var elt = event.detail.elt;
    if (streaming && !config.triggeringEvent && elt && (elt.id === "game" || elt.id === "talk-list")) {
      event.preventDefault();  // a timer's poll, while the stream is open
    }
    if (config.verb === "post" && event.detail.target && event.detail.target.id === "game") {
      posting = true;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail.requestConfig || {};
    if (config.verb === "post" && posting) {
      posting = false;
      // Let the answer to my move land first; then only a seq beyond it counts.
      setTimeout(function () { var seq = waiting; waiting = 0; if (seq) announce(seq); }, 0);
    }
  });

  // A date and time the server wrote in UTC ({% when %}), said in the
  // reader's own zone and language; the UTC one stays as its tooltip.
  function localTimes() {
    document.querySelectorAll("time[data-local]").forEach(function (el) {
      if (el.dataset.localDone) return;
      var at = new Date(el.getAttribute("datetime"));
      if (isNaN(at.getTime())) return;
      el.title = el.textContent;
      el.textContent = at.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
      el.dataset.localDone = "1";
    });
  }
  document.addEventListener("DOMContentLoaded", localTimes);
  document.addEventListener("htmx:afterSwap", localTimes);

  // Back or Forward to a game page kept in the browser's memory: fetch it
  // again, so it never shows an older state than the one it left (htmx
  // keeps no snapshots either: htmx-config in base.html).
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.getElementById("game")) window.location.reload();
  });

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();
