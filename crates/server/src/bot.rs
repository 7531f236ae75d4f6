//! AI moves on a bounded pool: at most `ai_threads` searches run at once
//! (a [`Semaphore`]), each on one of the pool's own threads with a deadline
//! and a stop flag. The pool's threads run at a lower OS scheduling
//! priority (Linux per-thread nice, [`AiPool::new`]), so a search only gets
//! the CPU time the games' traffic leaves: a move's round trip does not
//! wait behind a search.

use std::{
    fmt,
    panic::AssertUnwindSafe,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering},
        mpsc as std_mpsc,
    },
    time::{Duration, Instant},
};

use std::cell::RefCell;

use chessplayx_engine::{EngineGame, EngineSearcher, Level, SearchLimits, SearchOptions};
use chessplayx_rules::{AnyGame, Variant};
use rand::Rng as _;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, oneshot};

/// A position to search: a copy of the room's game record (so the engine
/// sees the history for repetitions, without replaying the moves from
/// text), and the level.
#[derive(Clone, Debug)]
pub struct AiRequest {
    /// The game, as the room holds it.
    pub game: AnyGame,
    /// How strongly to play.
    pub level: Level,
}

/// What picks a move: blocking, CPU-bound, called on a blocking thread.
/// It must return by the deadline (or soon after the stop flag is raised)
/// and gives `None` when it has no move (the game is over). It may post
/// the best move it has found so far to the [`BestSoFar`], which is
/// answered instead if the picker is late. The server uses the engine
/// ([`engine_picker`]); tests may inject another.
pub type Picker = Arc<
    dyn Fn(&AiRequest, Option<Instant>, &Arc<AtomicBool>, &BestSoFar) -> Option<String>
        + Send
        + Sync,
>;

/// The best move a running search has found so far (its last completed
/// iteration's), shared with the side waiting for the answer. The search
/// threads run under `SCHED_IDLE`, so a machine busy with other work can
/// hold one off the CPU for hundreds of milliseconds past its deadline,
/// before it even notices the time; the waiting side then answers with
/// this move on time instead of waiting (docs/performance-server.md, goal 4 of
/// issue 13: measured by `scripts/strength/ai-time.py`).
#[derive(Clone, Debug, Default)]
pub struct BestSoFar(Arc<Mutex<Option<String>>>);

impl BestSoFar {
    /// Posts the move found so far (UCI), replacing the previous one.
    pub fn set(&self, uci: &str) {
        let mut slot = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        uci.clone_into(slot.get_or_insert_with(String::new));
    }

    /// The last move posted, if any.
    #[must_use]
    pub fn get(&self) -> Option<String> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

/// How long past its thinking time a search may run before the waiting
/// side answers with the [`BestSoFar`]: a search that is not starved
/// notices its deadline within a millisecond or two, so this only bites
/// when the thread did not get the CPU.
const LATE_GRACE: Duration = Duration::from_millis(20);

/// A level's own thinking time, used when the caller gives none.
fn level_time(level: Level) -> Duration {
    Duration::from_millis(level.params().movetime_ms.unwrap_or(1_000))
}

/// Why no AI move came.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    /// Every search slot stayed busy until the deadline.
    #[error("the engine is busy")]
    Busy,
    /// The position has no move to make.
    #[error("no move to make")]
    NoMove,
    /// The search task failed (a bug in the engine).
    #[error("the search failed")]
    Failed,
}

/// A search's result: the move in UCI, or why there is none.
pub type AiOutcome = Result<String, AiError>;

/// How long an AI thread keeps its search tables without a search.
const KEEP_TABLES: Duration = Duration::from_secs(60);

thread_local! {
    /// The engine's tables of this AI thread, for one variant and hash
    /// size at a time, cleared before each search (so each search starts
    /// fresh, as with a new table) and kept between searches. Allocating
    /// and freeing 32 MiB per search made every search map, fault in and
    /// unmap that much memory; unmapping takes the process's memory-map
    /// lock for writing, and a low-priority thread preempted while holding
    /// it stalled the async workers' own page faults for 100+ ms.
    static TABLES: RefCell<Option<(Variant, usize, EngineSearcher)>> = const { RefCell::new(None) };
}

/// A search handed to one of the pool's threads.
type Job = Box<dyn FnOnce() + Send>;

/// What the pool has done, for `/api/health` and the load tool.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AiStats {
    /// Search threads (the most searches at once).
    pub threads: usize,
    /// Searches running now.
    pub running: usize,
    /// Searches finished since the start.
    pub searches: u64,
    /// Milliseconds spent searching, summed over the threads: divided by
    /// `threads` × wall time it says how busy the pool was.
    pub busy_ms: u64,
    /// The nice value the threads run at (`None` when it could not be set,
    /// or off Linux).
    pub nice: Option<i32>,
    /// The threads run under `SCHED_IDLE`.
    pub sched_idle: bool,
}

#[derive(Debug, Default)]
struct Counters {
    searches: AtomicU64,
    busy_us: AtomicU64,
    /// The nice value the threads set, `i64::MIN` until one has.
    nice: AtomicI64,
    /// A thread is under `SCHED_IDLE`.
    sched_idle: AtomicBool,
}

/// Which queue a job of [`AiPool::run`] waits in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Priority {
    /// A move someone waits for (AI seats, `/api/ai-move`, `/api/eval`):
    /// first come, first served.
    Interactive,
    /// Work nobody waits for move by move (game analysis): takes a slot
    /// only when no interactive job is waiting, so analyses never delay a
    /// game's AI move by more than the job already running.
    Background,
}

/// How often a background job looks for a free slot without being told
/// (a slot freed by a job is announced at once; this is a safety net).
const BACKGROUND_POLL: Duration = Duration::from_millis(50);

/// The bounded pool of searches.
#[derive(Clone)]
pub struct AiPool {
    permits: Arc<Semaphore>,
    /// Told each time a job gives its slot back (background jobs wait
    /// for it).
    freed: Arc<Notify>,
    threads: usize,
    jobs: std_mpsc::Sender<Job>,
    counters: Arc<Counters>,
    picker: Picker,
}

impl fmt::Debug for AiPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AiPool")
            .field("threads", &self.threads)
            .field("available", &self.permits.available_permits())
            .finish_non_exhaustive()
    }
}

/// Lowers the calling thread's scheduling priority by `increment` nice
/// steps from the one it inherited (the server's), at most to 19 (Linux:
/// the nice value is per thread). Returns the value now in force.
#[cfg(target_os = "linux")]
fn lower_own_priority(increment: i32) -> Option<i32> {
    let tid = rustix::thread::gettid();
    let inherited = rustix::process::getpriority_process(Some(tid)).ok()?;
    let nice = inherited.saturating_add(increment.max(0)).min(19);
    if let Err(e) = rustix::process::setpriority_process(Some(tid), nice) {
        tracing::warn!(error = %e, nice, "could not lower the AI thread's priority");
    }
    rustix::process::getpriority_process(Some(tid)).ok()
}

#[cfg(not(target_os = "linux"))]
fn lower_own_priority(_increment: i32) -> Option<i32> {
    None
}

/// Puts the calling thread under Linux's `SCHED_IDLE` policy: it runs only
/// when nothing else wants the CPU, and a waking async worker preempts it
/// at once. Nice alone is not enough: a CPU busy with a nice-19 thread
/// still counts as busy when the scheduler places a waking worker, and
/// with autogroups the nice value only weighs within the session.
/// `true` when the policy is in force.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn idle_policy() -> bool {
    let param = libc::sched_param { sched_priority: 0 };
    // Safety: `sched_setscheduler` only reads the `sched_param` we pass,
    // which lives on this stack frame for the whole call; pid 0 names the
    // calling thread, and SCHED_IDLE with priority 0 is a valid pair.
    let set = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &raw const param) };
    if set != 0 {
        tracing::warn!(
            error = %std::io::Error::last_os_error(),
            "could not put the AI thread under SCHED_IDLE"
        );
    }
    set == 0
}

#[cfg(not(target_os = "linux"))]
fn idle_policy() -> bool {
    false
}

impl AiPool {
    /// A pool running at most `threads` searches at once with `picker`, on
    /// `threads` threads of its own, `nice` steps below the server's
    /// priority (at most down to nice 19, the lowest; 0 leaves them equal
    /// to the async workers). The threads end when the last clone of the
    /// pool is dropped.
    #[must_use]
    /// With `sched_idle`, the threads also run under Linux's `SCHED_IDLE`
    /// policy (only when a CPU would otherwise idle).
    pub fn new(threads: usize, nice: i32, sched_idle: bool, picker: Picker) -> Self {
        let threads = threads.max(1);
        let (jobs, queue) = std_mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let counters = Arc::new(Counters {
            nice: AtomicI64::new(i64::MIN),
            ..Counters::default()
        });
        for i in 0..threads {
            let queue = Arc::clone(&queue);
            let counters = Arc::clone(&counters);
            let spawned = std::thread::Builder::new()
                .name(format!("ai-search-{i}"))
                .spawn(move || {
                    if let Some(n) = lower_own_priority(nice) {
                        counters.nice.store(i64::from(n), Ordering::Relaxed);
                    }
                    if sched_idle && idle_policy() {
                        counters.sched_idle.store(true, Ordering::Relaxed);
                    }
                    loop {
                        // The lock is held only while waiting for a job;
                        // the other idle threads wait for the lock instead.
                        let job = queue
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .recv_timeout(KEEP_TABLES);
                        let job = match job {
                            Ok(job) => job,
                            Err(std_mpsc::RecvTimeoutError::Timeout) => {
                                // Idle: give the search tables back.
                                TABLES.with(|t| t.borrow_mut().take());
                                continue;
                            }
                            Err(std_mpsc::RecvTimeoutError::Disconnected) => break,
                        };
                        // A panicking search drops its reply (the room sees
                        // `Failed`) without costing the pool a thread.
                        let _panicked = std::panic::catch_unwind(AssertUnwindSafe(job));
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "could not start an AI thread");
            }
        }
        Self {
            permits: Arc::new(Semaphore::new(threads)),
            freed: Arc::new(Notify::new()),
            threads,
            jobs,
            counters,
            picker,
        }
    }

    /// What the pool is doing and has done.
    #[must_use]
    pub fn stats(&self) -> AiStats {
        let nice = self.counters.nice.load(Ordering::Relaxed);
        AiStats {
            threads: self.threads,
            running: self
                .threads
                .saturating_sub(self.permits.available_permits()),
            searches: self.counters.searches.load(Ordering::Relaxed),
            // Rounded up: a pool that searched at all reports a busy time.
            busy_ms: self.counters.busy_us.load(Ordering::Relaxed).div_ceil(1000),
            nice: i32::try_from(nice).ok(),
            sched_idle: self.counters.sched_idle.load(Ordering::Relaxed),
        }
    }

    /// Searches `req`. Waits for a free slot until `queue_deadline` (for
    /// ever when `None`), then thinks for at most `think` (the level's own
    /// time when `None`). Raising `stop` ends the search early. A search
    /// still running `LATE_GRACE` (20 ms) after its time is stopped and answered
    /// by the best move it had posted, if it had posted one (it then gives
    /// its slot back as soon as it sees the stop flag).
    ///
    /// # Errors
    ///
    /// [`AiError::Busy`] when no slot freed up in time, [`AiError::NoMove`]
    /// when the game is over, [`AiError::Failed`] when the search panicked.
    pub async fn best_move(
        &self,
        req: AiRequest,
        think: Option<Duration>,
        queue_deadline: Option<tokio::time::Instant>,
        stop: Arc<AtomicBool>,
    ) -> AiOutcome {
        let picker = Arc::clone(&self.picker);
        let so_far = BestSoFar::default();
        let posted = so_far.clone();
        let flag = Arc::clone(&stop);
        let time = think.unwrap_or_else(|| level_time(req.level));
        let (answer, handed) = self
            .start(Priority::Interactive, queue_deadline, move |handed| {
                // Timed from the hand-over, not from when the thread got
                // the CPU: a thread starved before it starts must not
                // then think for its whole time.
                picker(&req, Some(handed + time), &flag, &posted)
            })
            .await?;
        let due = tokio::time::Instant::from_std(handed) + time + LATE_GRACE;
        tokio::pin!(answer);
        let best = match tokio::time::timeout_at(due, &mut answer).await {
            Ok(best) => best.map_err(|_| AiError::Failed)?,
            Err(_late) => match so_far.get() {
                Some(uci) => {
                    stop.store(true, Ordering::Relaxed);
                    tracing::debug!(%uci, "a starved search answered with its move so far");
                    Some(uci)
                }
                // Not stopped: a search stopped before its first iteration
                // has no move. Its deadline has passed, so it ends as
                // soon as that iteration does.
                None => answer.await.map_err(|_| AiError::Failed)?,
            },
        };
        best.ok_or(AiError::NoMove)
    }

    /// Runs `job` on one of the pool's threads once a slot is free,
    /// waiting in the queue of `priority` until `queue_deadline` (for ever
    /// when `None`). The job must bound its own time (a search deadline):
    /// it holds one of the few slots while it runs. It counts in
    /// [`AiStats`] as a search.
    ///
    /// # Errors
    ///
    /// [`AiError::Busy`] when no slot freed up in time, [`AiError::Failed`]
    /// when the job panicked or the pool has stopped.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        priority: Priority,
        queue_deadline: Option<tokio::time::Instant>,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AiError> {
        self.start(priority, queue_deadline, |_handed| job())
            .await?
            .0
            .await
            .map_err(|_| AiError::Failed)
    }

    /// [`run`](Self::run)'s first half: waits for a slot and hands `job`
    /// to a thread. Returns the receiver of its result (an error if it
    /// panicked) and the instant of the hand-over, which the job is also
    /// given.
    async fn start<T: Send + 'static>(
        &self,
        priority: Priority,
        queue_deadline: Option<tokio::time::Instant>,
        job: impl FnOnce(Instant) -> T + Send + 'static,
    ) -> Result<(oneshot::Receiver<T>, Instant), AiError> {
        let wait = async {
            match priority {
                Priority::Interactive => Arc::clone(&self.permits)
                    .acquire_owned()
                    .await
                    .map_err(|_| AiError::Failed),
                Priority::Background => Ok(self.background_slot().await),
            }
        };
        let permit = match queue_deadline {
            Some(deadline) => tokio::time::timeout_at(deadline, wait)
                .await
                .map_err(|_| AiError::Busy)?,
            None => wait.await,
        }?;
        let counters = Arc::clone(&self.counters);
        let freed = Arc::clone(&self.freed);
        let (reply, answer) = oneshot::channel();
        let handed = Instant::now();
        // A permit is held for each job handed over, and there are as many
        // permits as threads, so a job never waits for a thread.
        let job: Job = Box::new(move || {
            let started = Instant::now();
            let out = job(handed);
            let spent = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
            counters.busy_us.fetch_add(spent, Ordering::Relaxed);
            counters.searches.fetch_add(1, Ordering::Relaxed);
            drop(permit);
            freed.notify_waiters();
            let _gone = reply.send(out);
        });
        self.jobs.send(job).map_err(|_| AiError::Failed)?;
        Ok((answer, handed))
    }

    /// A slot for a background job: taken only when it is free with
    /// nobody queued for it. The semaphore hands a released permit to its
    /// queued (interactive) waiters first, so `try_acquire` succeeds only
    /// when none is waiting: the background job goes after all of them.
    async fn background_slot(&self) -> OwnedSemaphorePermit {
        loop {
            let freed = self.freed.notified();
            tokio::pin!(freed);
            // Registered before trying, so a slot freed in between wakes it.
            freed.as_mut().enable();
            if let Ok(permit) = Arc::clone(&self.permits).try_acquire_owned() {
                return permit;
            }
            let _either = tokio::time::timeout(BACKGROUND_POLL, freed).await;
        }
    }
}

/// Runs `f` with this pool thread's engine tables for `variant` at
/// `hash_mb` MiB, cleared first (each search starts fresh) but kept
/// allocated between searches (see [`TABLES`]). Only for jobs running on
/// the pool's threads ([`AiPool::run`]).
pub(crate) fn with_tables<T>(
    variant: Variant,
    hash_mb: usize,
    f: impl FnOnce(&mut EngineSearcher) -> T,
) -> T {
    TABLES.with(|cell| {
        let mut tables = cell.borrow_mut();
        match &mut *tables {
            Some((v, h, searcher)) if *v == variant && *h == hash_mb => {
                searcher.clear();
                f(searcher)
            }
            _ => {
                // Free the old tables before taking the new ones.
                *tables = None;
                let (_, _, searcher) =
                    tables.insert((variant, hash_mb, EngineSearcher::new(hash_mb)));
                f(searcher)
            }
        }
    })
}

/// The engine as a [`Picker`]: takes the room's game record as the
/// engine's game (its moves played once more on the concrete position
/// type, not parsed from text), so the search sees the history
/// (repetitions), then thinks at the level until the deadline (the
/// level's own move time when `None`) or the stop flag. Each call has a
/// fresh random seed, so games against the AI differ.
#[must_use]
pub fn engine_picker() -> Picker {
    Arc::new(
        |req: &AiRequest, deadline: Option<Instant>, stop: &Arc<AtomicBool>, so_far: &BestSoFar| {
            let game = EngineGame::from_game(&req.game);
            let variant = req.game.variant();
            let level = req.level;
            let seed = rand::rng().random();
            let hash_mb = level.params().hash_mb;
            let deadline = deadline.unwrap_or_else(|| Instant::now() + level_time(level));
            let options = SearchOptions {
                level,
                seed,
                multipv: 1,
                row: None,
                stop: Some(Arc::clone(stop)),
                deadline: Some(deadline),
            };
            with_tables(variant, hash_mb, |searcher| {
                // Each completed iteration's best line: what a starved
                // search is answered with (the levels that pick among
                // several lines with noise get the best one then).
                let mut post = |info: &chessplayx_engine::EngineInfo<'_>| {
                    if info.multipv == 1
                        && let Some(mv) = info.pv.first()
                    {
                        so_far.set(mv);
                    }
                };
                searcher
                    .search(&game, &SearchLimits::default(), options, &mut post)
                    .best_move
            })
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(game: &AnyGame, level: Level) -> Option<String> {
        let stop = Arc::new(AtomicBool::new(false));
        let deadline = Instant::now() + Duration::from_millis(100);
        engine_picker()(
            &AiRequest {
                game: game.clone(),
                level,
            },
            Some(deadline),
            &stop,
            &BestSoFar::default(),
        )
    }

    /// The picker searches the room's own record: its move is legal in the
    /// record's current position, in every game and from a set-up FEN.
    #[test]
    fn the_engine_answers_with_a_legal_move_of_the_rooms_game() {
        let games = [
            AnyGame::replay(Variant::Chess, None, &["e2e4", "e7e5"]),
            AnyGame::replay(Variant::Horde, None, &["e4e5"]),
            AnyGame::replay(Variant::Atomic, None, &["g1f3", "d7d5", "f3e5"]),
            AnyGame::replay(
                Variant::Xiangqi,
                Some("4k4/9/9/9/9/9/9/9/4A4/3K1R3 w - - 0 1"),
                &["f1f2", "e10e9"],
            ),
        ];
        for game in games {
            let game = game.unwrap_or_else(|e| panic!("{e}"));
            let mv = ask(&game, Level::Two).unwrap_or_else(|| panic!("{}", game.fen()));
            assert!(
                game.legal_moves().iter().any(|m| m.uci == mv),
                "{mv} in {}",
                game.fen()
            );
        }
    }

    /// With the one slot taken, a background job queued first still goes
    /// after an interactive job queued later.
    #[tokio::test]
    async fn background_jobs_go_after_waiting_interactive_ones() {
        let pool = AiPool::new(1, 0, false, engine_picker());
        let (hold, release) = std::sync::mpsc::channel::<()>();
        let order = Arc::new(Mutex::new(Vec::new()));
        let busy = tokio::spawn({
            let pool = pool.clone();
            async move {
                pool.run(Priority::Interactive, None, move || {
                    let _released = release.recv();
                })
                .await
            }
        });
        while pool.stats().running == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let queue = |priority, name: &'static str| {
            let pool = pool.clone();
            let order = Arc::clone(&order);
            tokio::spawn(async move {
                pool.run(priority, None, move || {
                    order
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push(name);
                })
                .await
            })
        };
        let background = queue(Priority::Background, "background");
        tokio::time::sleep(Duration::from_millis(120)).await;
        let interactive = queue(Priority::Interactive, "interactive");
        tokio::time::sleep(Duration::from_millis(50)).await;
        hold.send(()).unwrap();
        for task in [busy, background, interactive] {
            task.await.unwrap().unwrap();
        }
        let order = order
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        assert_eq!(*order, ["interactive", "background"]);
    }

    /// A search held off the CPU past its time (here: a picker that
    /// posts one move, then sleeps through its deadline and would answer
    /// another) is answered on time with the move it posted, and told to
    /// stop; one that posted nothing is waited for.
    #[tokio::test]
    async fn a_late_search_is_answered_with_its_move_so_far() {
        let late: Picker = Arc::new(|_req, _deadline, stop, so_far| {
            so_far.set("e2e4");
            let until = Instant::now() + Duration::from_secs(3);
            while Instant::now() < until && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            Some(
                if so_far.get().is_some() {
                    "d2d4"
                } else {
                    "none"
                }
                .to_owned(),
            )
        });
        let pool = AiPool::new(1, 0, false, late);
        let req = AiRequest {
            game: AnyGame::replay::<&str>(Variant::Chess, None, &[])
                .unwrap_or_else(|e| panic!("{e}")),
            level: Level::Eight,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let think = Some(Duration::from_millis(50));
        let got = pool
            .best_move(req.clone(), think, None, Arc::clone(&stop))
            .await;
        assert_eq!(got, Ok("e2e4".to_owned()));
        assert!(
            stop.load(Ordering::Relaxed),
            "the late search was told to stop"
        );

        let silent: Picker = Arc::new(|_req, _deadline, _stop, _so_far| {
            std::thread::sleep(Duration::from_millis(200));
            Some("g1f3".to_owned())
        });
        let pool = AiPool::new(1, 0, false, silent);
        let stop = Arc::new(AtomicBool::new(false));
        assert_eq!(
            pool.best_move(req, think, None, stop).await,
            Ok("g1f3".to_owned())
        );
    }

    #[test]
    fn a_finished_game_gets_no_move() {
        let mated = AnyGame::replay(Variant::Chess, None, &["f2f3", "e7e5", "g2g4", "d8h4"])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ask(&mated, Level::Eight), None);
    }
}
