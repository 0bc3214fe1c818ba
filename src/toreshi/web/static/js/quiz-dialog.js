// The host's questions in the app's own dialog instead of the browser's prompt() and confirm(): a modal <dialog>
// (focus stays inside, Escape cancels, focus goes back where it was), written in the page's language, with real
// choices (radio buttons) and labelled fields instead of "type the number of the line".

import { element } from "./dom.js";

let open = null;

/** A dialog is showing: the console's keyboard shortcuts wait (the keys belong to its fields). */
export function dialogOpen() {
  return open !== null;
}

/**
 * Ask the host. `choices` (radio buttons: `{value, label, detail}`) and `fields` (`{name, label, type, required,
 * value, min, max}`) are optional; `groups` are further radio sets (`{name, legend, options: [{value, label}],
 * value}`). Resolves to `null` when cancelled, else `{choice, values}` (`values` by field and group name).
 */
export function ask({ title, text = "", legend = "", choices = [], groups = [], fields = [], ok, cancel }) {
  if (open) open.close("cancel");
  const dialog = element("dialog", "q-dialog");
  const form = element("form", "stack");
  form.method = "dialog";
  const heading = element("h2", "q-dialog-title", title);
  heading.id = "q-dialog-title";
  dialog.setAttribute("aria-labelledby", heading.id);
  form.append(heading);
  if (text) {
    const line = element("p", "q-dialog-text", text);
    line.id = "q-dialog-text";
    dialog.setAttribute("aria-describedby", line.id);
    form.append(line);
  }
  if (choices.length) form.append(radios("choice", legend, choices, choices[0].value, "q-dialog-choices"));
  for (const group of groups) form.append(radios(group.name, group.legend, group.options, group.value, "q-dialog-group"));
  for (const field of fields) {
    const label = element("label", "q-dialog-field");
    const input = element("input");
    input.name = field.name;
    input.type = field.type || "text";
    input.autocomplete = "off";
    if (field.required) input.required = true;
    if (field.value !== undefined) input.value = String(field.value);
    if (field.min !== undefined) input.min = String(field.min);
    if (field.max !== undefined) input.max = String(field.max);
    if (field.maxLength) input.maxLength = field.maxLength;
    if (field.type === "number") input.step = "1";
    label.append(element("span", "", field.label), input);
    form.append(label);
  }
  const buttons = element("div", "q-dialog-buttons");
  const no = element("button", "", cancel);
  no.type = "button";
  no.value = "cancel";
  no.addEventListener("click", () => dialog.close("cancel"));
  const yes = element("button", "primary", ok);
  yes.type = "submit";
  yes.value = "ok";
  buttons.append(no, yes);
  form.append(buttons);
  dialog.append(form);
  const before = document.activeElement;
  document.body.append(dialog);
  open = dialog;
  return new Promise((resolve) => {
    let answer = null;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!form.reportValidity()) return;
      const data = new FormData(form);
      const values = {};
      for (const [name, value] of data.entries()) values[name] = String(value);
      answer = { choice: values.choice ?? null, values };
      dialog.close("ok");
    });
    dialog.addEventListener("close", () => {
      open = null;
      dialog.remove();
      if (before && typeof before.focus === "function" && document.contains(before)) before.focus();
      resolve(dialog.returnValue === "ok" ? answer : null);
    });
    dialog.showModal();
    const first = form.querySelector("input:checked, input:not([type=radio])") || yes;
    first.focus();
  });
}

function radios(name, legend, options, checked, className) {
  const set = element("fieldset", className);
  if (legend) set.append(element("legend", "", legend));
  for (const option of options) {
    const label = element("label", "q-dialog-option");
    const input = element("input");
    input.type = "radio";
    input.name = name;
    input.value = String(option.value);
    input.checked = option.value === checked;
    label.append(input, element("span", "q-dialog-option-label", option.label));
    if (option.detail) label.append(element("span", "q-dialog-option-detail", option.detail));
    set.append(label);
  }
  return set;
}
