// The controls shown on the page that lack a square of `least`×`least` CSS
// pixels a finger can touch: the square's centre, the middle of each of its
// sides and the points a quarter in from each corner all hit-test to the
// control (so a card of a fanned hand counts only the part the next card
// leaves uncovered, and a rounded corner is no fault). Controls made inert (behind an open sheet) are not
// counted. Run by tests/web_app_browser_support.py.
([selector, least]) => {
  const small = [];
  const scrolled = [window.scrollX, window.scrollY];
  for (const control of document.querySelectorAll(selector)) {
    if (control.closest("[inert]")) continue;
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
        const [a, q, h, r, b] = [1, least / 4, least / 2, (3 * least) / 4, least - 1];
        const offsets = [[h, h], [h, a], [h, b], [a, h], [b, h], [q, q], [r, q], [q, r], [r, r]];
        const points = offsets.map(([dx, dy]) => [left + dx, top + dy]);
        found = points.every(([x, y]) => mine(x, y));
      }
    }
    if (!found) {
      const label = control.labels && control.labels.length ? control.labels[0].textContent : control.textContent;
      const name = control.getAttribute("aria-label") || label.trim().slice(0, 30) || control.id || control.tagName;
      small.push(`${control.tagName.toLowerCase()} "${name}" (${Math.round(box.width)}×${Math.round(box.height)})`);
    }
  }
  window.scrollTo(scrolled[0], scrolled[1]);
  return small;
}
