// tajmahal serve: the colour scheme of every page. It follows the system's (light or dark)
// unless the person chose one with the header's toggle, which this browser remembers.
"use strict";
(function () {
  const KEY = "tajmahal.scheme";
  const system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  let override = null;  // this page's choice where the browser keeps nothing (private mode)
  function chosen() {
    if (override) return override;
    let kept = null;
    try { kept = localStorage.getItem(KEY); } catch (e) { kept = null; }
    if (kept === "dark" || kept === "light") return kept;
    return system && system.matches ? "dark" : "light";
  }
  function apply() {
    const scheme = chosen();
    document.documentElement.dataset.scheme = scheme;
    const button = document.getElementById("scheme");
    if (button) {
      button.setAttribute("aria-pressed", scheme === "dark" ? "true" : "false");
      button.textContent = scheme === "dark" ? "light scheme" : "dark scheme";
    }
  }
  apply();
  if (system && system.addEventListener) system.addEventListener("change", apply);
  document.addEventListener("DOMContentLoaded", () => {
    const header = document.querySelector("header");
    if (!header) return;
    const button = document.createElement("button");
    button.id = "scheme";
    button.type = "button";
    button.title = "switch between the light and the dark colour scheme (remembered here)";
    button.addEventListener("click", () => {
      const next = chosen() === "dark" ? "light" : "dark";
      override = next;
      try { localStorage.setItem(KEY, next); } catch (e) { /* private mode: this page only */ }
      apply();
    });
    header.append(button);
    apply();
  });
})();
