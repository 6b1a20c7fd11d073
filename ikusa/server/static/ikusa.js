// ikusa web table: the one small script island (htmx does the rest).
//  * dice keypad: a face button appends to the typed dice; the roll is sent when all its dice
//    are in.  What is typed is kept in localStorage per table and version, so a reload keeps it.
//  * the 「再接続中…」 state of the SSE stream, the rule-id toggle, a vibration on 「あなたの手番」.
//  * the aria-live #announce line gets the turn's words when they change.
//  * a refused GM ruling marks the field its error names (aria-invalid) in the form that sent it.
(function () {
  "use strict";
  var STORE = "ikusa-dice:";

  function faces(input) {
    return input.value.trim() === "" ? [] : input.value.trim().split(/[\s,]+/);
  }

  function wire(root) {
    var req = root.querySelector ? root.querySelector(".dice-request") : null;
    if (!req || req.dataset.wired) return;
    req.dataset.wired = "1";
    var key = STORE + req.dataset.key;
    var count = parseInt(req.dataset.count, 10) || 1;
    var input = req.querySelector("input[name=dice]");
    var form = req.querySelector("form");
    var saved = window.localStorage && localStorage.getItem(key);
    if (saved && input.value === "") input.value = saved;
    function keep() { try { localStorage.setItem(key, input.value); } catch (e) { /* private mode */ } }
    req.querySelectorAll("button.face").forEach(function (b) {
      b.addEventListener("click", function () {
        var f = faces(input);
        if (f.length >= count) f = [];
        f.push(b.dataset.face);
        input.value = f.join(" ");
        keep();
        if (f.length === count) form.requestSubmit(form.querySelector("button[value=typed]"));
      });
    });
    var back = req.querySelector("button.back");
    if (back) back.addEventListener("click", function () {
      var f = faces(input); f.pop(); input.value = f.join(" "); keep();
    });
    input.addEventListener("input", keep);
  }

  // the aria-live line: the turn's words when they change (not at every version of the table)
  var lastTurn = null;
  function announce() {
    var line = document.getElementById("turn-text");
    var region = document.getElementById("announce");
    if (!line || !region) return;
    var text = line.textContent.replace(/\s+/g, " ").trim();
    if (text !== lastTurn) { lastTurn = text; region.textContent = text; }
  }

  document.addEventListener("htmx:afterSwap", function (e) { wire(e.target); });
  document.addEventListener("htmx:sseMessage", function (e) {
    if (e.target && e.target.id === "pending") wire(e.target);
    if (e.target && e.target.id === "turn") announce();
    if (e.target && (e.target.id === "log" || e.target.id === "chat")) {
      var list = e.target.querySelector("ol");
      if (list) list.scrollTop = list.scrollHeight;
    }
    if (e.target && e.target.id === "banner" && e.target.querySelector(".banner-turn") && navigator.vibrate) {
      navigator.vibrate(200);
    }
  });
  // a 2xx answer to a dice form means the roll was taken: forget what was typed
  document.addEventListener("htmx:afterRequest", function (e) {
    var req = e.target.closest && e.target.closest(".dice-request");
    if (req && e.detail.successful) { try { localStorage.removeItem(STORE + req.dataset.key); } catch (x) { /* ok */ } }
  });
  // a refused ruling: its form shows the error; the field the error names is marked
  document.addEventListener("ikusa-field-error", function (e) {
    var form = e.target.closest && e.target.closest("form");
    if (!form) return;
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    var name = e.detail && e.detail.field;
    var el = name ? form.querySelector("[name=\"" + name + "\"]") : null;
    if (el) { el.setAttribute("aria-invalid", "true"); el.focus(); }
  });
  // a form marked data-reset is emptied once its request succeeded (htmx's hx-on needs eval,
  // which the page's htmx config forbids)
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.target;
    if (form && form.matches && form.matches("form[data-reset]") && e.detail.successful) form.reset();
    if (form && form.matches && form.matches("form.ruling") && e.detail.successful) {
      form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
      var slot = form.querySelector(".form-error");
      if (slot) slot.innerHTML = "";
    }
  });
  document.addEventListener("htmx:sseOpen", function () { document.body.classList.remove("sse-down"); });
  document.addEventListener("htmx:sseError", function () { document.body.classList.add("sse-down"); });
  document.addEventListener("htmx:sseClose", function () { document.body.classList.add("sse-down"); });

  document.addEventListener("DOMContentLoaded", function () {
    wire(document);
    announce();
    var rules = document.getElementById("show-rules");
    if (rules && window.localStorage) {
      rules.checked = localStorage.getItem("ikusa-rules") !== "off";
      rules.addEventListener("change", function () { localStorage.setItem("ikusa-rules", rules.checked ? "on" : "off"); });
    }
  });
})();
