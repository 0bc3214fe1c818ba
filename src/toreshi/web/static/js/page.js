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
