// A field the browser refuses before sending is explained in the page's language, not the browser's: the words are
// on <body data-v-…> (templates/_document.html), one per kind of problem the Constraint Validation API names.
// The server checks everything again; this only words the browser's own refusal.

const ours = new WeakSet();

function words(key, values = {}) {
  const text = document.body?.dataset?.[key];
  if (!text) return "";
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** What is wrong with ``field``, in the page's words; "" when there is nothing to say or nothing we know. */
export function explain(field) {
  const v = field.validity;
  if (v.valueMissing) {
    if (field.type === "radio" || field.tagName === "SELECT") return words("vChoose");
    if (field.type === "checkbox") return words("vTick");
    if (field.type === "file") return words("vFile");
    return words("vMissing");
  }
  if (v.badInput) return words("vNumber");
  if (v.typeMismatch) return words(field.type === "email" ? "vEmail" : field.type === "url" ? "vUrl" : "vFormat");
  if (v.rangeUnderflow) return words("vMin", { min: field.min });
  if (v.rangeOverflow) return words("vMax", { max: field.max });
  if (v.tooShort) return words("vShort", { min: field.minLength });
  if (v.tooLong) return words("vLong", { max: field.maxLength });
  if (v.stepMismatch) {
    const step = field.step || "1";
    return Number(step) === 1 ? words("vWhole") : words("vStep", { step });
  }
  if (v.patternMismatch) return field.title || words("vFormat");
  return "";
}

function isField(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
}

document.addEventListener(
  "invalid",
  (event) => {
    const field = event.target;
    if (!isField(field)) return;
    if (ours.has(field)) field.setCustomValidity(""); // look again at the value as it is now
    else if (field.validity.customError) return; // a page's own message stays
    const text = explain(field);
    if (text) {
      field.setCustomValidity(text);
      ours.add(field);
    }
  },
  true,
);

// Once the value changes, the browser judges it afresh (our message would otherwise keep the field invalid).
function clear(event) {
  const field = event.target;
  if (!isField(field) || !ours.has(field)) return;
  field.setCustomValidity("");
  ours.delete(field);
  // A radio group shares one verdict: clear its siblings too.
  if (field.type === "radio" && field.form && field.name) {
    for (const other of field.form.querySelectorAll(`input[type=radio][name="${CSS.escape(field.name)}"]`)) {
      if (ours.has(other)) {
        other.setCustomValidity("");
        ours.delete(other);
      }
    }
  }
}
document.addEventListener("input", clear, true);
document.addEventListener("change", clear, true);
