import Foundation

extension PostgresSchema {
    /// The work queue of `lectern run --queue` and `lectern worker`: a queued run keeps its
    /// pipeline file's text (workers on other machines parse it as the planner did, so they need
    /// the library's URL only), and each input of its plan is a job that one worker at a time
    /// holds with a lease (`lease_owner` host:pid, `lease_expires` by the server's clock: the
    /// workers' clocks play no part). A run's `finish` job waits until every source job is done
    /// or failed; then one worker runs the finishing stages under the run lock.
    static let queue: (name: String, statements: [String]) = ("v5-queue", [
        """
        create table queue_runs (run_id bigint primary key references runs(id) on delete cascade,
            pipeline_name text not null, pipeline_directory text not null, pipeline_text text not null,
            created_at timestamptz not null default now(), finished_at timestamptz)
        """,
        // state: waiting (a finish job whose sources are not all done), pending, leased, done,
        // failed. attempts: times taken; failures: times it failed with an error; lost_leases:
        // times its worker stopped renewing the lease (killed, lost) before it ended.
        """
        create table queue_jobs (id bigserial primary key, run_id bigint not null references queue_runs(run_id) on delete cascade,
            kind text not null check (kind in ('source', 'finish')), position integer not null,
            source text, identity text, display text not null, found_in_folder boolean not null default false,
            state text not null check (state in ('waiting', 'pending', 'leased', 'done', 'failed')),
            lease_owner text, lease_expires timestamptz, attempts integer not null default 0,
            failures integer not null default 0, lost_leases integer not null default 0, last_error text,
            counts text, done_by text, enqueued_at timestamptz not null default now(), started_at timestamptz,
            finished_at timestamptz, seconds double precision, unique (run_id, kind, identity))
        """,
        // What a worker looks for: the few jobs pending or leased among millions done.
        "create index queue_jobs_open on queue_jobs (id) where state in ('pending', 'leased')",
        "create index queue_jobs_run on queue_jobs (run_id, kind, state)",
    ])
}
