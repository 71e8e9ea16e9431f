//! `tavoliere replay`: placeholder until the rules integrator provides it.

/// Arguments of `tavoliere replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Anything; not read yet.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

/// Not implemented yet.
pub fn run(_args: Args) -> std::process::ExitCode {
    eprintln!("tavoliere replay: not yet implemented");
    std::process::ExitCode::FAILURE
}
