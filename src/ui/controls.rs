//! The scenario's controls: op, declaration, grad context, `require_grad`, fix, backend, inputs.
//!
//! Every control is a native form element with a label, so it works with the keyboard and
//! screen readers as is. Each change goes through [`Change`] so the app can decide how to
//! record it in the URL and when to re-run.

use leptos::prelude::*;

use crate::form::Form;
use crate::input::{ArgsError, Field};
use crate::scenario::{BackendChoice, Fix, OpKind};
use crate::ui::parse_cache::ParseCache;

/// What kind of edit happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A toggle, radio button or button: re-run now, new history entry.
    Toggle,
    /// Typing in a field: re-run after a pause, same history entry.
    Typing,
}

fn op_summary(op: OpKind) -> &'static str {
    match op {
        OpKind::Scale => "float · hand-written CubeCL kernel and backward",
        OpKind::LeakyRelu => "float · default trait body of burn primitives",
        OpKind::ShiftIds => "int · its routing tensor is an int tensor",
    }
}

fn fix_label(fix: Fix) -> &'static str {
    match fix {
        Fix::None => "None: call the custom op",
        Fix::Detach => "No-grad: call it on x.without_autodiff()",
        Fix::Builtin => "Builtin: use burn's tensor ops instead",
    }
}

/// The message for `field`, if its text does not parse.
fn field_error(errors: &[ArgsError], field: Field) -> Option<String> {
    errors
        .iter()
        .find(|error| error.field == field)
        .map(|error| error.error.to_string())
}

/// All scenario controls.
///
/// `text_revision` changes whenever the fields' text is replaced from outside (op switch, link,
/// back/forward): only then are the text fields rewritten, so typing never moves the caret.
#[component]
pub fn Controls(
    form: RwSignal<Form>,
    parse_cache: ParseCache,
    text_revision: RwSignal<u64>,
    /// Whether the GPU backend can run (`None` while the engine starts).
    gpu_available: Signal<Option<bool>>,
    on_change: Callback<Change>,
    on_run: Callback<()>,
) -> impl IntoView {
    let edit = move |change: Change, apply: Box<dyn FnOnce(&mut Form)>| {
        form.update(|form| apply(form));
        on_change.run(change);
    };
    let errors = Memo::new(move |_| form.with(|form| parse_cache.errors(form)));
    let is_int = move || form.with(|form| form.op.takes_int_input());

    let op_options = OpKind::ALL
        .into_iter()
        .map(|op| {
            view! {
                <label class="choice">
                    <input
                        type="radio"
                        name="op"
                        value=op.name()
                        prop:checked=move || form.with(|form| form.op == op)
                        on:change=move |_| {
                            edit(Change::Toggle, Box::new(move |form| form.op = op));
                            text_revision.update(|revision| *revision += 1);
                        }
                    />
                    <span class="choice-text">
                        <code>{op.name()}</code>
                        <small>{op_summary(op)}</small>
                    </span>
                </label>
            }
        })
        .collect_view();

    let fix_options = Fix::ALL
        .into_iter()
        .map(|fix| {
            view! {
                <label class="choice">
                    <input
                        type="radio"
                        name="fix"
                        value=crate::form::fix_name(fix)
                        prop:checked=move || form.with(|form| form.fix == fix)
                        on:change=move |_| edit(Change::Toggle, Box::new(move |form| form.fix = fix))
                    />
                    <span class="choice-text">{fix_label(fix)}</span>
                </label>
            }
        })
        .collect_view();

    let backend_options = BackendChoice::ALL
        .into_iter()
        .map(|backend| {
            let label = match backend {
                BackendChoice::Gpu => "WebGPU (burn-wgpu, selector Cube)",
                BackendChoice::Cpu => "CPU (burn-flex, selector Flex)",
            };
            let disabled =
                move || backend == BackendChoice::Gpu && gpu_available.get() == Some(false);
            view! {
                <label class="choice">
                    <input
                        type="radio"
                        name="backend"
                        value=crate::form::backend_name(backend)
                        prop:checked=move || form.with(|form| form.backend == backend)
                        prop:disabled=disabled
                        on:change=move |_| edit(Change::Toggle, Box::new(move |form| form.backend = backend))
                    />
                    <span class="choice-text">{label}</span>
                </label>
            }
        })
        .collect_view();

    let tensor_error = move || field_error(&errors.get(), Field::Tensor);
    let param_error = move || field_error(&errors.get(), Field::Param);

    view! {
        // The Run button does not submit the form: Chromium's form submission reads every field
        // first, half a second with a million values in the tensor field. Enter in the
        // parameter field runs directly for the same reason.
        <form class="controls" on:submit=move |event| {
            event.prevent_default();
            on_run.run(());
        }>
            <fieldset>
                <legend>"Custom op"</legend>
                {op_options}
            </fieldset>

            <fieldset>
                <legend>"Declaration"</legend>
                <label class="switch">
                    <input
                        type="checkbox"
                        id="declares-autodiff"
                        prop:checked=move || form.with(|form| form.declaration.autodiff)
                        on:change=move |event| {
                            let on = event_target_checked(&event);
                            edit(Change::Toggle, Box::new(move |form| form.declaration.autodiff = on));
                        }
                    />
                    <span>"Op declares the " <code>"Autodiff"</code> " selector (and has its " <code>"Autodiff<B, C>"</code> " impl)"</span>
                </label>
                <label class="switch">
                    <input
                        type="checkbox"
                        id="declares-flex"
                        prop:checked=move || form.with(|form| form.declaration.flex)
                        on:change=move |event| {
                            let on = event_target_checked(&event);
                            edit(Change::Toggle, Box::new(move |form| form.declaration.flex = on));
                        }
                    />
                    <span>"Op declares the " <code>"Flex"</code> " selector (the CPU backend)"</span>
                </label>
                <pre class="snippet" aria-label="The op's declaration"><code>{move || {
                    form.with(|form| format!("#[backend_extension({})]", form.declaration.selectors()))
                }}</code></pre>
            </fieldset>

            <fieldset>
                <legend>"Call context"</legend>
                <label class="switch">
                    <input
                        type="checkbox"
                        id="grad-context"
                        prop:checked=move || form.with(|form| form.grad_context)
                        on:change=move |event| {
                            let on = event_target_checked(&event);
                            edit(Change::Toggle, Box::new(move |form| form.grad_context = on));
                        }
                    />
                    <span>"Grad context: the input lives on " <code>"device.autodiff()"</code> ", as in a training loop"</span>
                </label>
                <label class="switch">
                    <input
                        type="checkbox"
                        id="require-grad"
                        prop:checked=move || form.with(|form| form.require_grad)
                        prop:disabled=is_int
                        aria-describedby="require-grad-note"
                        on:change=move |event| {
                            let on = event_target_checked(&event);
                            edit(Change::Toggle, Box::new(move |form| form.require_grad = on));
                        }
                    />
                    <span><code>"x.require_grad()"</code></span>
                </label>
                <p class="note" id="require-grad-note">
                    {move || if is_int() {
                        "Int tensors carry no gradient: require_grad does not apply to shift_ids."
                    } else {
                        "Marks the input so backward() computes its gradient."
                    }}
                </p>
            </fieldset>

            <fieldset>
                <legend>"Fix at the call site"</legend>
                {fix_options}
            </fieldset>

            <fieldset>
                <legend>"Backend"</legend>
                {backend_options}
            </fieldset>

            <fieldset>
                <legend>"Inputs"</legend>
                <label for="tensor-input">
                    {move || if is_int() { "ids (int tensor)" } else { "x (float tensor)" }}
                </label>
                <textarea
                    id="tensor-input"
                    rows="3"
                    spellcheck="false"
                    aria-describedby="tensor-help tensor-error"
                    aria-invalid=move || tensor_error().is_some().to_string()
                    prop:value=move || {
                        text_revision.track();
                        form.with_untracked(|form| form.texts().tensor.clone())
                    }
                    on:input=move |event| {
                        let text = event_target_value(&event);
                        edit(Change::Typing, Box::new(move |form| form.texts_mut().tensor = text));
                    }
                ></textarea>
                <p class="note" id="tensor-help">"Numbers separated by commas or spaces; rows separated by ; or a new line."</p>
                <p class="field-error" id="tensor-error" role="alert">{tensor_error}</p>

                <label for="param-input">{move || form.with(|form| form.op.param_name())}</label>
                <input
                    id="param-input"
                    type="text"
                    inputmode="decimal"
                    spellcheck="false"
                    aria-describedby="param-error"
                    aria-invalid=move || param_error().is_some().to_string()
                    prop:value=move || {
                        text_revision.track();
                        form.with_untracked(|form| form.texts().param.clone())
                    }
                    on:input=move |event| {
                        let text = event_target_value(&event);
                        edit(Change::Typing, Box::new(move |form| form.texts_mut().param = text));
                    }
                    on:keydown=move |event: web_sys::KeyboardEvent| {
                        if event.key() == "Enter" && !event.ctrl_key() && !event.meta_key() {
                            event.prevent_default();
                            on_run.run(());
                        }
                    }
                />
                <p class="field-error" id="param-error" role="alert">{param_error}</p>
            </fieldset>

            <div class="run-row">
                <button type="button" class="run-button" on:click=move |_| on_run.run(())>"Run"</button>
                <span class="note"><kbd>"Ctrl"</kbd> "/" <kbd>"⌘"</kbd> " + " <kbd>"Enter"</kbd> " runs from anywhere; every change re-runs."</span>
            </div>
        </form>
    }
}
