// Behaviour every page may use, without inline scripts (the Content-Security-Policy allows none):
// <button data-action="print"> prints the page; <select data-split-into="round,board"> copies the parts of its
// value ("3:5") into the form's fields of those names; <form data-confirm="question"> is sent only once confirmed.

document.addEventListener("click", (event) => {
  const button = event.target.closest?.("[data-action='print']");
  if (button) window.print();
});

document.addEventListener("change", (event) => {
  const select = event.target;
  const names = select?.dataset?.splitInto;
  if (!names || !select.form) return;
  const parts = select.value.split(":");
  names.split(",").forEach((name, index) => {
    const field = select.form.elements[name.trim()];
    if (field) field.value = parts[index] ?? "";
  });
});

document.addEventListener("submit", (event) => {
  const question = event.target?.dataset?.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});

// A file field (the file_input macro of _forms.html) shows the chosen file's name in the page's language.
document.addEventListener("change", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.type !== "file") return;
  const name = input.closest(".file-pick")?.querySelector(".file-pick-name");
  if (!name) return;
  const files = input.files ? Array.from(input.files) : [];
  if (files.length === 0) name.textContent = name.dataset.none;
  else if (files.length === 1) name.textContent = files[0].name;
  else name.textContent = name.dataset.many.replace("{count}", String(files.length));
});
