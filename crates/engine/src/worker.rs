//! A search on its own thread, so the UCI session can answer `isready`
//! and `stop` while the engine thinks.
//!
//! The searcher (and so its transposition table) moves into the thread
//! for the search and comes back when the thread is joined: one owner at a
//! time, no locks.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    thread::{self, JoinHandle},
    time::Duration,
};

use crate::{EngineGame, EngineInfo, EngineSearcher, SearchLimits, SearchOptions, SearchResult};

/// What to search: a game, the limits and the options (`options.stop` is
/// replaced by the worker's own flag).
#[derive(Clone, Debug)]
pub struct SearchJob {
    /// The position and the positions before it.
    pub game: EngineGame,
    /// Depth, nodes, time…
    pub limits: SearchLimits,
    /// Level, seed, MultiPV, deadline.
    pub options: SearchOptions,
}

#[derive(Debug)]
enum State {
    Idle(Box<EngineSearcher>),
    Running {
        handle: JoinHandle<Box<EngineSearcher>>,
        stop: Arc<AtomicBool>,
        infinite: bool,
    },
    /// The search thread panicked; the next use starts afresh.
    Lost,
}

/// Runs one search at a time on a background thread.
///
/// Dropping it stops a running search and waits for its thread, so the
/// final callback always runs.
#[derive(Debug)]
pub struct BackgroundSearch {
    state: State,
    hash_mb: usize,
}

impl BackgroundSearch {
    /// An idle worker whose searcher has about `hash_mb` MiB of hash.
    #[must_use]
    pub fn new(hash_mb: usize) -> Self {
        Self {
            state: State::Idle(Box::new(EngineSearcher::new(hash_mb))),
            hash_mb,
        }
    }

    /// `true` while a search runs (or has finished but was not yet
    /// collected).
    #[must_use]
    pub const fn is_running(&self) -> bool {
        matches!(self.state, State::Running { .. })
    }

    /// Starts `job` on a new thread, after stopping any search still
    /// running. `on_info` hears each iteration; `on_done` gets the result.
    ///
    /// A search with `limits.infinite` set does not finish by itself: it
    /// waits for [`BackgroundSearch::stop`] before reporting, as UCI
    /// requires (no `bestmove` before `stop` after `go infinite`).
    ///
    /// # Errors
    ///
    /// The thread could not be spawned; nothing runs then.
    pub fn start(
        &mut self,
        job: SearchJob,
        mut on_info: impl FnMut(&EngineInfo<'_>) + Send + 'static,
        on_done: impl FnOnce(SearchResult<String>) + Send + 'static,
    ) -> std::io::Result<()> {
        let mut searcher = self.take_searcher();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let SearchJob {
            game,
            limits,
            mut options,
        } = job;
        let infinite = limits.infinite;
        options.stop = Some(Arc::clone(&stop));
        let spawned = thread::Builder::new().name("search".into()).spawn(move || {
            let result = searcher.search(&game, &limits, options, &mut on_info);
            if limits.infinite {
                while !flag.load(Ordering::Relaxed) {
                    thread::sleep(Duration::from_millis(1));
                }
            }
            on_done(result);
            searcher
        });
        match spawned {
            Ok(handle) => {
                self.state = State::Running {
                    handle,
                    stop,
                    infinite,
                };
                Ok(())
            }
            Err(e) => {
                self.state = State::Idle(Box::new(EngineSearcher::new(self.hash_mb)));
                Err(e)
            }
        }
    }

    /// Stops the running search (it reports its best move so far) and
    /// waits for it.
    pub fn stop(&mut self) {
        if let State::Running { stop, .. } = &self.state {
            stop.store(true, Ordering::Relaxed);
        }
        self.wait();
    }

    /// Stops a search that would never end by itself (`go infinite`),
    /// and lets any other finish: what a session does when its input ends.
    pub fn wait_or_stop_infinite(&mut self) {
        if let State::Running { infinite: true, .. } = self.state {
            self.stop();
        } else {
            self.wait();
        }
    }

    /// Waits for the running search to end by its own limits.
    pub fn wait(&mut self) {
        let state = core::mem::replace(&mut self.state, State::Lost);
        self.state = match state {
            State::Running { handle, .. } => handle.join().map_or(State::Lost, State::Idle),
            other => other,
        };
    }

    /// The idle searcher (stopping any search first), to clear or resize.
    pub fn searcher(&mut self) -> &mut EngineSearcher {
        self.stop();
        if !matches!(self.state, State::Idle(_)) {
            self.state = State::Idle(Box::new(EngineSearcher::new(self.hash_mb)));
        }
        match &mut self.state {
            State::Idle(s) => s,
            // Just set to Idle above.
            _ => unreachable!("the worker is idle here"),
        }
    }

    /// Changes the hash size (dropping what was learnt).
    pub fn set_hash(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb;
        self.searcher().set_hash(hash_mb);
    }

    fn take_searcher(&mut self) -> Box<EngineSearcher> {
        self.stop();
        match core::mem::replace(&mut self.state, State::Lost) {
            State::Idle(s) => s,
            _ => Box::new(EngineSearcher::new(self.hash_mb)),
        }
    }
}

impl Drop for BackgroundSearch {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use std::{
        sync::{Mutex, mpsc},
        time::Instant,
    };

    use chessplayx_rules::Variant;

    use super::*;
    use crate::EnginePosition;

    fn job(limits: SearchLimits) -> SearchJob {
        SearchJob {
            game: EngineGame::new(EnginePosition::start(Variant::Chess)),
            limits,
            options: SearchOptions::default(),
        }
    }

    #[test]
    fn a_bounded_search_reports_by_itself() {
        let mut w = BackgroundSearch::new(1);
        let (tx, rx) = mpsc::channel();
        let infos = Arc::new(Mutex::new(0));
        let count = Arc::clone(&infos);
        w.start(
            job(SearchLimits::depth(4)),
            move |_| *count.lock().unwrap_or_else(|e| e.into_inner()) += 1,
            move |r| tx.send(r).unwrap_or(()),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let r = rx
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.depth, 4);
        assert!(r.best_move.is_some());
        w.wait();
        assert!(!w.is_running());
        assert_eq!(*infos.lock().unwrap_or_else(|e| e.into_inner()), 4);
    }

    #[test]
    fn an_infinite_search_waits_for_stop() {
        let mut w = BackgroundSearch::new(1);
        let (tx, rx) = mpsc::channel();
        let limits = SearchLimits {
            infinite: true,
            depth: Some(2),
            ..SearchLimits::default()
        };
        w.start(job(limits), |_| {}, move |r| tx.send(r).unwrap_or(()))
            .unwrap_or_else(|e| panic!("{e}"));
        // Depth 2 is done at once, but nothing is reported before stop.
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
        assert!(w.is_running());
        let t = Instant::now();
        w.stop();
        assert!(rx.try_recv().is_ok_and(|r| r.best_move.is_some()));
        assert!(t.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn starting_again_stops_the_previous_search_and_drop_joins() {
        let mut w = BackgroundSearch::new(1);
        let (tx, rx) = mpsc::channel();
        let tx2 = tx.clone();
        let inf = SearchLimits {
            infinite: true,
            ..SearchLimits::default()
        };
        w.start(job(inf), |_| {}, move |r| tx.send(r).unwrap_or(()))
            .unwrap_or_else(|e| panic!("{e}"));
        w.start(job(inf), |_| {}, move |r| tx2.send(r).unwrap_or(()))
            .unwrap_or_else(|e| panic!("{e}"));
        // The first search was stopped and reported.
        assert!(rx.recv_timeout(Duration::from_secs(1)).is_ok());
        drop(w);
        // Dropping stopped the second one, which reported too.
        assert!(rx.recv_timeout(Duration::from_secs(1)).is_ok());
    }
}
