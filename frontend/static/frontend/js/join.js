// The join-by-code pages (a league's, a table's): what the code leads to, then one
// confirmation. `preview(code)` and `join(code)` ask the API, `question(preview)` words the
// confirmation, `errorText(error)` words a refusal, `open(thing)` leaves for what was
// joined; `alreadyIn()` finds what the person is in already (null: nothing), which is
// opened at once, and again when the join answers "already_member".
export function joinByCode(rootId, { preview, question, join, open, errorText,
  alreadyIn = async () => null }) {
  const root = document.getElementById(rootId);
  const code = JSON.parse(document.getElementById("join-code").textContent);
  const what = root.querySelector("[data-what]");
  const explainer = root.querySelector("[data-explain]");
  const button = root.querySelector("[data-join]");
  const status = root.querySelector("[data-status]");

  async function load() {
    let found;
    try {
      found = await preview(code);
    } catch (error) {
      what.textContent = errorText(error);
      return;
    }
    const mine = await alreadyIn(code);
    if (mine) { open(mine); return; }
    what.textContent = question(found);
    explainer.hidden = false;
    button.hidden = false;
    button.focus();
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      open(await join(code));
    } catch (error) {
      if (error.code === "already_member") {
        const mine = await alreadyIn(code);
        if (mine) { open(mine); return; }
      }
      status.classList.add("message", "error");
      status.textContent = errorText(error);
      button.disabled = false;
    }
  });

  load();
}
