//! The scenario's controls: op, declaration, grad context, `require_grad`, fix, backend, inputs,
//! and the buttons to run and to share.
//!
//! Every control is a native form element with a label, so it works with the keyboard and
//! screen readers as is. Each change goes through [`Playground::edit`], which records it in the
//! URL and re-runs.

use leptos::prelude::*;

use super::state::{Change, use_playground};
use super::url;
use crate::model::catalog::FusionForm;
use crate::model::scenario::{AutodiffDeclared, BackendChoice, Fix, OpKind};
use crate::teach::code::op_sources::fusion_attribute;
use crate::teach::form::Form;
use crate::teach::input::args::{ArgsError, Field};
use crate::teach::link::words::LinkWord;

fn op_summary(op: OpKind) -> &'static str {
    match op {
        OpKind::Scale => "float · hand-written CubeCL kernel and backward",
        OpKind::LeakyRelu => "float · default trait body of burn primitives",
        OpKind::ShiftIds => "int · its routing tensor is an int tensor",
    }
}

fn autodiff_label(autodiff: AutodiffDeclared) -> AnyView {
    match autodiff {
        AutodiffDeclared::Absent => view! { "Not listed" }.into_any(),
        AutodiffDeclared::Listed => {
            view! { "Listed, with the op's " <code>"Autodiff<B, C>"</code> " impl" }.into_any()
        }
        AutodiffDeclared::CfgOff => view! {
            "Listed behind " <code>"cfg(feature = \"autodiff\")"</code> ", with the impl; built with the feature off"
        }
        .into_any(),
        AutodiffDeclared::CfgOn => view! {
            "The same, built with " <code>"--features autodiff"</code>
        }
        .into_any(),
    }
}

fn fusion_label(fusion: FusionForm) -> &'static str {
    match fusion {
        FusionForm::None => "Not listed",
        FusionForm::Shape => "Listed: #[fusion(dtype = x, shape = x)]",
        FusionForm::Meta => "Listed: #[fusion(meta = …)], a function gives the output's spec",
        FusionForm::Default => "Listed: #[fusion(default)], the trait's default body",
        FusionForm::WrongShape => "Listed: #[fusion(shape = …)] with the wrong shape (flattened)",
    }
}

fn fix_label(fix: Fix) -> &'static str {
    match fix {
        Fix::None => "None: call the custom op",
        Fix::WithoutAutodiff => "Without autodiff: call it on x.without_autodiff()",
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
#[component]
pub fn Controls() -> impl IntoView {
    let playground = use_playground();
    let form = playground.form;
    let text_revision = playground.text_revision;
    let errors = playground.input_errors;
    let edit = move |change: Change, apply: Box<dyn FnOnce(&mut Form)>| {
        playground.edit(change, apply);
    };
    let on_run = move || playground.schedule_run(0);
    let gpu_available = Signal::derive(move || playground.gpu_available());
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
                            text_revision.update(|revision| *revision += 1);
                            edit(Change::Toggle, Box::new(move |form| form.op = op));
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

    let autodiff_options = AutodiffDeclared::ALL
        .into_iter()
        .map(|autodiff| {
            view! {
                <label class="choice">
                    <input
                        type="radio"
                        name="declares-autodiff"
                        value=autodiff.word()
                        prop:checked=move || form.with(|form| form.declaration.autodiff() == autodiff)
                        on:change=move |_| edit(Change::Toggle, Box::new(move |form| {
                            form.declaration = form.declaration.with_autodiff(autodiff).unwrap_or(form.declaration);
                        }))
                    />
                    // One flex item, so the inline code stays in the sentence.
                    <span class="choice-text"><span>{autodiff_label(autodiff)}</span></span>
                </label>
            }
        })
        .collect_view();

    // The `Fusion` selector's forms: only with burn's fusion on, and only those the catalog has
    // with the declaration's other choices.
    let fusion_options = FusionForm::ALL
        .into_iter()
        .map(|fusion| {
            let available = move || {
                form.with(|form| form.fusion && form.declaration.with_fusion(fusion).is_some())
            };
            view! {
                <option
                    value=fusion.word()
                    selected=move || form.with(|form| form.declaration.fusion() == fusion)
                    disabled=move || !available() && fusion != FusionForm::None
                >
                    {fusion_label(fusion)}
                </option>
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
                        value=fix.word()
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
                        value=backend.word()
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
            on_run();
        }>
            <fieldset>
                <legend>"Custom op"</legend>
                {op_options}
            </fieldset>

            <fieldset>
                <legend>"Declaration"</legend>
                <div class="choice-group" id="autodiff-choices" role="radiogroup" aria-labelledby="autodiff-choice-label">
                    <p class="choice-group-label" id="autodiff-choice-label">"The " <code>"Autodiff"</code> " selector"</p>
                    {autodiff_options}
                </div>
                <label class="switch">
                    <input
                        type="checkbox"
                        id="declares-flex"
                        prop:checked=move || form.with(|form| form.declaration.flex())
                        on:change=move |event| {
                            let on = event_target_checked(&event);
                            edit(Change::Toggle, Box::new(move |form| {
                                form.declaration = form.declaration.with_flex(on).unwrap_or(form.declaration);
                            }));
                        }
                    />
                    <span>"Op declares the " <code>"Flex"</code> " selector (the CPU backend)"</span>
                </label>
                <label class="switch" id="fusion-choice">
                    <input
                        type="checkbox"
                        id="burn-fusion"
                        prop:checked=move || form.with(|form| form.fusion)
                        on:change=move |event| {
                            // Another build of burn is another engine: the page reloads with it.
                            let on = event_target_checked(&event);
                            let mut next = form.get_untracked();
                            next.fusion = on;
                            if !on {
                                next.declaration = next
                                    .declaration
                                    .with_fusion(FusionForm::None)
                                    .unwrap_or(next.declaration);
                            }
                            url::reload_with(&next);
                        }
                    />
                    <span>
                        "burn built with its " <code>"fusion"</code>
                        " feature (on in burn-wgpu's defaults; switching loads that engine)"
                    </span>
                </label>
                <div class="select-field">
                    <label for="declares-fusion">"The " <code>"Fusion"</code> " selector"</label>
                    <select
                        id="declares-fusion"
                        prop:disabled=move || !form.with(|form| form.fusion)
                        aria-describedby="declares-fusion-note"
                        on:change=move |event| {
                            let value = event_target_value(&event);
                            if let Some(fusion) = FusionForm::ALL
                                .into_iter()
                                .find(|&fusion| fusion.word() == value)
                            {
                                edit(Change::Toggle, Box::new(move |form| {
                                    form.declaration = form.declaration.with_fusion(fusion).unwrap_or(form.declaration);
                                }));
                            }
                        }
                    >
                        {fusion_options}
                    </select>
                    <p class="note" id="declares-fusion-note">{move || if form.with(|form| form.fusion) {
                        // True by construction: `fusion_options` disables the forms `with_fusion` finds no line for.
                        "Each form puts its #[fusion(...)] on the op's method; a form the catalog has no line for with this Autodiff and Flex choice is disabled."
                    } else {
                        "Needs burn's fusion feature, above."
                    }}</p>
                </div>
                <pre class="snippet" tabindex="0" aria-label="The op's declaration"><code>{move || {
                    form.with(|form| {
                        let attribute = fusion_attribute(form.op, form.declaration.fusion())
                            .map(|attribute| format!("\n    {attribute}\n    fn {}(…)", form.op.name()))
                            .unwrap_or_default();
                        format!("#[backend_extension({})]{attribute}", form.declaration.selectors())
                    })
                }}</code></pre>
            </fieldset>

            <fieldset>
                <legend>"Call context"</legend>
                <label class="switch" id="grad-context-choice">
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
                        form.with_untracked(|form| form.texts().tensor.to_string())
                    }
                    on:input=move |event| {
                        let text = event_target_value(&event);
                        edit(Change::Typing, Box::new(move |form| form.texts_mut().tensor = text.into()));
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
                            on_run();
                        }
                    }
                />
                <p class="field-error" id="param-error" role="alert">{param_error}</p>
            </fieldset>

            <div class="run-row">
                <button type="button" class="run-button" on:click=move |_| on_run()>"Run"</button>
                <span class="note"><kbd>"Ctrl"</kbd> "/" <kbd>"⌘"</kbd> " + " <kbd>"Enter"</kbd> " runs from anywhere; every change re-runs."</span>
            </div>
            <ShareLink/>
        </form>
    }
}

/// Copies the page's link, which holds the whole scenario; says so when a field is too long to
/// go into a link.
#[component]
fn ShareLink() -> impl IntoView {
    let form = use_playground().form;
    let copied = RwSignal::new(None::<&'static str>);
    let copy = move |_| {
        let Some(link) = url::current_link() else {
            return;
        };
        let clipboard = web_sys::window().map(|window| window.navigator().clipboard());
        leptos::task::spawn_local(async move {
            let done = match clipboard {
                Some(clipboard) => {
                    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&link))
                        .await
                        .is_ok()
                }
                None => false,
            };
            copied.set(Some(if done {
                "Link copied."
            } else {
                "The browser refused the clipboard: copy the address bar instead."
            }));
        });
    };
    view! {
        <div class="share-row">
            <button type="button" class="share-button" on:click=copy>"Copy link to this scenario"</button>
            <span class="note" role="status" data-testid="share-status">{move || copied.get()}</span>
            {move || form.with(|form| form.link_omits_text()).then(|| view! {
                <p class="note share-limit" data-testid="share-limit">
                    "A field is longer than a link can carry (64 KiB): the link keeps every other setting, and opens with the op's example input in that field."
                </p>
            })}
        </div>
    }
}
