// What each element was last drawn from, so a view draws an element again only when what it
// shows changes. Drawing the same again lays the page out anew, restarts a card's animation
// and drops a card held mid-drag, at every move of anyone's.
const keys = new WeakMap(); // element -> the key it was drawn from

// Marks `element` as drawn from `key`, and returns it.
export function drawnAs(element, key) {
  keys.set(element, key);
  return element;
}

// Whether `element` already shows `key`; if not, it is marked as drawn from it, and the
// caller draws it.
export function unchanged(element, key) {
  if (keys.get(element) === key) return true;
  drawnAs(element, key);
  return false;
}
