//! The transport of [`McpClient::connect_stdio`](super::McpClient::connect_stdio): a child
//! process, whose stdout the client reads line by line before rmcp parses it (for what a
//! 2025-11-25 server says of tasks that rmcp's types leave out, see `legacy_tasks`).

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio::process::{Child, ChildStdin, ChildStdout};

use super::legacy_tasks::LegacyTasks;
use super::raw::Reading;

/// How long a server may take to exit once its stdin is closed, before it is killed (as
/// rmcp's own child process transport waits).
const EXIT_GRACE: Duration = Duration::from_secs(3);

/// What reads each line of the server's stdout.
type OnLine = Box<dyn FnMut(&[u8]) + Send>;

/// A server run as a child process, over its stdin and stdout.
pub(super) struct ChildTransport {
    inner: AsyncRwTransport<RoleClient, Reading<ChildStdout, OnLine>, ChildStdin>,
    /// Killed when dropped (`kill_on_drop`), if it has not exited.
    child: Child,
}

/// Starts `command` with its stdin and stdout piped (its stderr as `command` sets it,
/// inherited by default): the transport to the server it runs, each line of its stdout read
/// by `tasks`.
pub(super) fn spawn(
    mut command: tokio::process::Command,
    tasks: Arc<LegacyTasks>,
) -> io::Result<ChildTransport> {
    command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true);
    let mut child = command.spawn()?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(io::Error::other(
            "the child's stdin and stdout are not piped",
        ));
    };
    let on_line: OnLine = Box::new(move |line: &[u8]| tasks.read(line));
    let inner = AsyncRwTransport::new(Reading::new(stdout, on_line), stdin);
    Ok(ChildTransport { inner, child })
}

impl Transport<RoleClient> for ChildTransport {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.inner.receive()
    }

    /// Closes the server's stdin, which asks it to exit (MCP's stdio shutdown), and kills it
    /// when it has not within [`EXIT_GRACE`].
    async fn close(&mut self) -> Result<(), Self::Error> {
        let closed = self.inner.close().await;
        if tokio::time::timeout(EXIT_GRACE, self.child.wait())
            .await
            .is_err()
        {
            self.child.kill().await?;
        }
        closed
    }
}
