//! `tavoliere ready`: asks a running server's `/readyz` and exits 0 when it answers 200.
//! It is the container's health check (Dockerfile `HEALTHCHECK`), so that the runtime
//! image needs no curl (nor the OpenSSL curl brings along).

use std::time::Duration;

use anyhow::Context;
use hyper::Request;
use hyper_util::rt::TokioIo;

/// How long the whole question may take: a health check that hangs is a failed one.
const LIMIT: Duration = Duration::from_secs(2);

/// Asks `http://{host}:{port}/readyz`; prints the status.
///
/// # Errors
/// No answer within two seconds, or an answer other than 200.
pub async fn run(host: &str, port: u16) -> anyhow::Result<()> {
    let status = tokio::time::timeout(LIMIT, ask(host, port))
        .await
        .with_context(|| format!("no answer from {host}:{port} within {} s", LIMIT.as_secs()))??;
    if status == hyper::StatusCode::OK {
        println!("ready");
        Ok(())
    } else {
        anyhow::bail!("not ready: /readyz answered {status}")
    }
}

async fn ask(host: &str, port: u16) -> anyhow::Result<hyper::StatusCode> {
    let stream = tokio::net::TcpStream::connect((host, port))
        .await
        .with_context(|| format!("connecting to {host}:{port}"))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    let request =
        Request::get("/readyz").header(hyper::header::HOST, format!("{host}:{port}")).body(String::new())?;
    Ok(sender.send_request(request).await?.status())
}
