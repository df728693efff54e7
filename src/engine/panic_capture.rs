//! Capturing burn's panics as data.
//!
//! A process-wide panic hook records the message and location of every panic into a
//! thread-local slot. [`catching`] runs a closure and turns a panic into a [`PanicReport`] with
//! exactly what the hook saw.
//!
//! Natively the panic unwinds and `catching` returns `Err`. On wasm32 panics abort: the hook
//! still runs first, so the worker installs a sink that posts the report to the page before the
//! instance traps, and the page replaces the worker. The code path is the same; only the ending
//! differs. (Catching inside the instance needs a wasm built with unwinding, which burn-wgpu's
//! wgpu 30 cannot be compiled for: see BENCHMARKS.md.)

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::panic::{self, AssertUnwindSafe, PanicHookInfo};
use std::pin::Pin;
use std::sync::{Once, OnceLock};
use std::task::{Context, Poll};

use crate::model::outcome::{PanicLocation, PanicReport};

/// Receives every panic report as soon as the hook sees it.
pub type PanicSink = fn(&PanicReport);

static INSTALL: Once = Once::new();
static SINK: OnceLock<PanicSink> = OnceLock::new();

thread_local! {
    static LAST: RefCell<Option<PanicReport>> = const { RefCell::new(None) };
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
}

/// Installs the hook once per process. A `sink` given by the first caller receives every report.
/// Panics outside [`catching`] are also passed on to the previously installed hook, so test
/// failures still print as usual.
pub fn install(sink: Option<PanicSink>) {
    if let Some(sink) = sink {
        let _ = SINK.set(sink);
    }
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let report = report_of(info);
            if let Some(sink) = SINK.get() {
                sink(&report);
            }
            if !CAPTURING.with(Cell::get) {
                previous(info);
            }
            LAST.with(|last| *last.borrow_mut() = Some(report));
        }));
    });
}

fn report_of(info: &PanicHookInfo<'_>) -> PanicReport {
    let message = info
        .payload_as_str()
        .unwrap_or("panic with a non-string payload")
        .to_owned();
    let location = info.location().map(|location| PanicLocation {
        file: location.file().to_owned(),
        line: location.line(),
        column: location.column(),
    });
    PanicReport::new(message, location)
}

/// Runs `f`, returning the panic it raised as the hook recorded it (boxed: a run's result is
/// passed around far more often than a panic).
pub fn catching<T>(f: impl FnOnce() -> T) -> Result<T, Box<PanicReport>> {
    install(None);
    LAST.with(|last| last.borrow_mut().take());
    let was_capturing = CAPTURING.with(|capturing| capturing.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CAPTURING.with(|capturing| capturing.set(was_capturing));
    result.map_err(|_| {
        Box::new(
            LAST.with(|last| last.borrow_mut().take())
                .unwrap_or_else(|| {
                    PanicReport::new("panic not seen by the panic hook".to_owned(), None)
                }),
        )
    })
}

/// [`catching`] for a future: every poll runs inside it, so a panic raised after an `.await`
/// (a read back, a transaction) is reported the same way.
pub async fn catching_async<T>(future: impl Future<Output = T>) -> Result<T, Box<PanicReport>> {
    CatchPanics {
        future: Box::pin(future),
    }
    .await
}

struct CatchPanics<F> {
    future: Pin<Box<F>>,
}

impl<F: Future> Future for CatchPanics<F> {
    type Output = Result<F::Output, Box<PanicReport>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match catching(|| self.future.as_mut().poll(cx)) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Err(report) => Poll::Ready(Err(report)),
        }
    }
}
