//! `tavoliere perft`: placeholder until the rules integrator provides it.

/// Arguments of `tavoliere perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Anything; not read yet.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

/// Not implemented yet.
pub fn run(_args: Args) -> std::process::ExitCode {
    eprintln!("tavoliere perft: not yet implemented");
    std::process::ExitCode::FAILURE
}
