//! The `tavoliere` binary: see [`tavoliere::cli`].

fn main() -> std::process::ExitCode {
    tavoliere::cli::main()
}
