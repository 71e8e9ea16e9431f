//! One throwaway PostgreSQL cluster per test run (the embedded mechanism of `serve`),
//! a migrated template database, and a fresh database per test cloned from it.

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use tavoliere::storage::embedded::EmbeddedPostgres;

/// The cluster shared by every test of this binary.
pub struct Cluster {
    /// `postgres://tavoliere:<password>@127.0.0.1:<port>/`: a database name completes it.
    url_prefix: String,
}

const TEMPLATE: &str = "tavoliere_template";

static CLUSTER: OnceLock<Cluster> = OnceLock::new();
static RUNNING: Mutex<Option<EmbeddedPostgres>> = Mutex::new(None);

extern "C" fn stop_cluster_at_exit() {
    let taken = RUNNING.lock().ok().and_then(|mut guard| guard.take());
    if let Some(cluster) = taken {
        let _ = cluster.stop_and_delete();
    }
}

impl Cluster {
    /// Starts the cluster on first use.
    pub fn get() -> &'static Cluster {
        CLUSTER.get_or_init(|| {
            // SAFETY: geteuid has no preconditions.
            let root = unsafe { libc::geteuid() } == 0;
            let base = if root { PathBuf::from("/var/tmp") } else { std::env::temp_dir() };
            let dir = base.join(format!("tavoliere-test-{}", uuid::Uuid::new_v4().simple()));
            let cluster =
                EmbeddedPostgres::start_with(&dir, 0, false).expect("start the test PostgreSQL cluster");
            let url_prefix = cluster.url("");
            *RUNNING.lock().unwrap() = Some(cluster);
            // SAFETY: registering a plain extern "C" function; it runs at process exit.
            unsafe {
                libc::atexit(stop_cluster_at_exit);
            }
            let admin = format!("{url_prefix}postgres");
            let template = format!("{url_prefix}{TEMPLATE}");
            // Prepare the template on a runtime of its own (we may be inside a test's).
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Runtime::new().unwrap();
                runtime.block_on(async {
                    tavoliere::storage::create_database_if_missing(&admin, TEMPLATE).await.unwrap();
                    let pool = tavoliere::storage::connect(&template, 1).await.unwrap();
                    tavoliere::storage::migrate(&pool).await.unwrap();
                    tower_sessions_sqlx_store::PostgresStore::new(pool.clone()).migrate().await.unwrap();
                    pool.close().await;
                });
            })
            .join()
            .expect("prepare the template database");
            Cluster { url_prefix }
        })
    }

    /// A fresh, migrated database; returns its URL.
    pub async fn fresh_database(&self) -> String {
        let name = format!("test_{}", uuid::Uuid::new_v4().simple());
        let admin = tavoliere::storage::connect(&self.url("postgres"), 1).await.unwrap();
        sqlx::query(&format!(r#"create database "{name}" template {TEMPLATE}"#))
            .execute(&admin)
            .await
            .expect("create the test database");
        admin.close().await;
        self.url(&name)
    }

    fn url(&self, database: &str) -> String {
        format!("{}{database}", self.url_prefix)
    }
}
