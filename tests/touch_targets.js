// The controls shown on the page that lack a square of `least`×`least` CSS
// pixels a finger can touch: every point tested in it hit-tests to the
// control (so a card of a fanned hand counts only the part the next card
// leaves uncovered). Run by tests/web_app_browser_support.py.
([selector, least]) => {
  const small = [];
  const scrolled = [window.scrollX, window.scrollY];
  for (const control of document.querySelectorAll(selector)) {
    let box = control.getBoundingClientRect();
    const unseen = box.width === 0 || box.height === 0 || getComputedStyle(control).visibility === "hidden";
    if (unseen) continue;
    control.scrollIntoView({ block: "center", inline: "center" });
    box = control.getBoundingClientRect();
    const mine = (x, y) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && (hit === control || control.contains(hit));
    };
    let found = false;
    for (let top = box.top; !found && top + least <= box.bottom + 0.5; top += 3) {
      for (let left = box.left; !found && left + least <= box.right + 0.5; left += 3) {
        const points = [];
        for (const dy of [1, least / 2, least - 1]) {
          for (const dx of [1, least / 2, least - 1]) points.push([left + dx, top + dy]);
        }
        found = points.every(([x, y]) => mine(x, y));
      }
    }
    if (!found) {
      const name = control.getAttribute("aria-label") || control.textContent.trim().slice(0, 30) || control.id || control.tagName;
      small.push(`${control.tagName.toLowerCase()} "${name}" (${Math.round(box.width)}×${Math.round(box.height)})`);
    }
  }
  window.scrollTo(scrolled[0], scrolled[1]);
  return small;
}
