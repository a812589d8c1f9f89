//! Work over many files (`roundtrip`, `check`): every core takes one file at a time, and the
//! results are reported in the order of the inputs as soon as they and all before them are done,
//! so the output is the same on one core or many.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use rayon::prelude::*;

/// Runs `work` on every item on all cores and hands each item with its result to `report`,
/// in item order, with a progress bar unless `quiet`. When `report` fails (standard output
/// closed), the remaining items are not started.
pub fn run_ordered<'a, T, R, E>(
    items: &'a [T],
    quiet: bool,
    work: impl Fn(&T) -> R + Sync,
    mut report: impl FnMut(&'a T, R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Sync,
    R: Send,
{
    let progress = Progress::new(items.len(), quiet);
    let stopped = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            items
                .par_iter()
                .enumerate()
                .for_each_with(sender, |sender, (index, item)| {
                    if stopped.load(Ordering::Relaxed) {
                        return;
                    }
                    // A closed receiver means reporting stopped; the result is not wanted.
                    let _ = sender.send((index, work(item)));
                });
        });
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        let mut reported = Ok(());
        for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                let item = &items[next];
                next += 1;
                progress.advance();
                reported = progress.suspended(|| report(item, result));
                if reported.is_err() {
                    stopped.store(true, Ordering::Relaxed);
                    return reported;
                }
            }
        }
        reported
    })
}

/// A progress bar on standard error, drawn only when it is a terminal and the work is long
/// enough to be worth one.
struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    /// Below this many files a run is over before a bar would help.
    const MIN_ITEMS: usize = 50;

    fn new(len: usize, quiet: bool) -> Self {
        let shown = !quiet && len >= Self::MIN_ITEMS && std::io::stderr().is_terminal();
        Progress(shown.then(|| {
            let bar = indicatif::ProgressBar::new(len as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} files, {elapsed} (about {eta} left)",
            ) {
                bar.set_style(style);
            }
            bar
        }))
    }

    fn advance(&self) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
        }
    }

    /// Runs `f` with the bar hidden, so that lines printed to the same terminal stay whole.
    fn suspended<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.0 {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_input_order_whatever_finishes_first() {
        let items: Vec<u64> = (0..200).collect();
        let mut seen = Vec::new();
        run_ordered(
            &items,
            false,
            |&i| {
                // Early items take longest, so they finish last.
                std::thread::sleep(std::time::Duration::from_micros(200 - i));
                i * 2
            },
            |_, doubled| {
                seen.push(doubled);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(seen, items.iter().map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn a_failing_report_stops_the_run() {
        let items: Vec<u32> = (0..1000).collect();
        let mut reported = 0;
        let result = run_ordered(
            &items,
            false,
            |&i| i,
            |_, i| {
                reported += 1;
                if i == 3 { Err(i) } else { Ok(()) }
            },
        );
        assert_eq!(result, Err(3));
        assert_eq!(reported, 4);
    }
}
