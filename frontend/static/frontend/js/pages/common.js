// Every page: the language switcher submits on change; table settings apply everywhere.
import { applySettings, loadSettings } from "../settings.js";

applySettings(loadSettings());
for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form.submit());
}

// On a phone the menu is one row that scrolls sideways: a fading edge says more links lie
// beyond it, and the current page's link is brought into sight.
const menu = document.querySelector("header.site nav");
if (menu) {
  const markEdges = () => {
    menu.toggleAttribute("data-more-left", menu.scrollLeft > 1);
    menu.toggleAttribute("data-more-right", menu.scrollLeft + menu.clientWidth < menu.scrollWidth - 1);
  };
  menu.addEventListener("scroll", markEdges, { passive: true });
  new ResizeObserver(markEdges).observe(menu);
  const current = menu.querySelector("[aria-current]");
  if (current && menu.scrollWidth > menu.clientWidth) {
    const link = current.getBoundingClientRect(), box = menu.getBoundingClientRect();
    menu.scrollLeft += link.left + link.width / 2 - (box.left + box.width / 2);
  }
  markEdges();
}
