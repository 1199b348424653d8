// tajmahal serve: the how-to-play page's numbered rules, from rules.json (docs/rules.md).
"use strict";
fetch("/static/rules.json").then(r => r.json()).then(data => {
  const box = document.getElementById("rules");
  box.replaceChildren();
  for (const [title, items] of data.sections) {
    const heading = document.createElement("h3");
    heading.textContent = title;
    box.append(heading);
    for (const [id, name, text] of items) {
      const item = document.createElement("p");
      item.id = id;
      const code = document.createElement("strong");
      code.textContent = id + (name ? " " + name + "." : "") + " ";
      item.append(code, text);
      box.append(item);
    }
  }
  if (location.hash) {
    const target = document.getElementById(location.hash.slice(1));
    if (target) { target.classList.add("target"); target.scrollIntoView(); }
  }
});
