//! The `tavoliere` binary: see [`tavoliere::cli`].

/// mimalloc instead of the system allocator: a request allocates many small short-lived
/// values (JSON, rows, strings), where glibc malloc showed up in the profile of the load
/// benchmark.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tavoliere::cli::main()
}
