//! A server served in the bench process over a `tokio::io::duplex` pipe, on a current-thread
//! tokio runtime (what the mcpwire-server example runs on), the same for both SDKs: the
//! server's task and the client's reads and writes share that one thread.
//!
//! mcpwire is served with the public [`McpServer::serve`](mcpwire_server::McpServer::serve)
//! over the two halves of its end; rmcp with `rmcp::ServiceExt::serve` on its end.

use std::future::Future;
use std::io;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::runtime::Runtime;

use crate::line_peer::LinePeer;

/// Bytes each direction of the duplex pipe buffers.
const PIPE_CAPACITY: usize = 64 * 1024;

/// The client's end of a connection to a server running in this process.
pub struct InProcess {
    runtime: Runtime,
    reader: BufReader<ReadHalf<DuplexStream>>,
    writer: Option<WriteHalf<DuplexStream>>,
    line: Vec<u8>,
}

impl InProcess {
    /// The `add` server of [`crate::mcpwire_adder`].
    pub fn mcpwire() -> Self {
        Self::serving(crate::mcpwire_adder::server())
    }

    /// `server`, served with [`McpServer::serve`](mcpwire_server::McpServer::serve).
    pub fn serving(server: mcpwire_server::McpServer) -> Self {
        Self::start(|end| async move {
            let (input, output) = tokio::io::split(end);
            let _ = server.serve(input, output).await;
        })
    }

    /// The `add` server of [`crate::rmcp_adder`].
    pub fn rmcp() -> Self {
        Self::start(|end| async move {
            use rmcp::ServiceExt as _;
            if let Ok(running) = crate::rmcp_adder::Adder.serve(end).await {
                let _ = running.waiting().await;
            }
        })
    }

    /// A connection to the server `serve` runs on the server's end of the pipe (spawned on
    /// this connection's runtime).
    pub fn start<F, Fut>(serve: F) -> Self
    where
        F: FnOnce(DuplexStream) -> Fut,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a current-thread tokio runtime");
        let (client, server) = tokio::io::duplex(PIPE_CAPACITY);
        runtime.spawn(serve(server));
        let (reader, writer) = tokio::io::split(client);
        Self {
            runtime,
            reader: BufReader::with_capacity(PIPE_CAPACITY, reader),
            writer: Some(writer),
            line: Vec::new(),
        }
    }
}

async fn read_line(
    reader: &mut BufReader<ReadHalf<DuplexStream>>,
    line: &mut Vec<u8>,
) -> io::Result<()> {
    line.clear();
    if reader.read_until(b'\n', line).await? == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the server closed its end of the pipe",
        ));
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    Ok(())
}

impl LinePeer for InProcess {
    fn send(&mut self, line: &[u8]) -> io::Result<()> {
        let writer = self.writer.as_mut().expect("writer open");
        self.runtime.block_on(async {
            writer.write_all(line).await?;
            writer.write_all(b"\n").await?;
            writer.flush().await
        })
    }

    fn read_next(&mut self) -> io::Result<()> {
        self.runtime
            .block_on(read_line(&mut self.reader, &mut self.line))
    }

    fn stream(
        &mut self,
        bytes: &[u8],
        is_last: fn(&[u8]) -> bool,
    ) -> io::Result<(Duration, usize)> {
        let Self {
            runtime,
            reader,
            writer,
            line,
        } = self;
        let writer = writer.as_mut().expect("writer open");
        runtime.block_on(async {
            let start = Instant::now();
            let write = async {
                writer.write_all(bytes).await?;
                writer.flush().await
            };
            let read = async {
                let mut before = 0;
                loop {
                    read_line(reader, line).await?;
                    if is_last(line) {
                        return Ok::<usize, io::Error>(before);
                    }
                    before += 1;
                }
            };
            let (written, before) = tokio::join!(write, read);
            written?;
            Ok((start.elapsed(), before?))
        })
    }

    fn last_line(&self) -> &[u8] {
        &self.line
    }
}

impl Drop for InProcess {
    fn drop(&mut self) {
        // End of input: both servers finish; give them the chance before the runtime drops.
        if let Some(mut writer) = self.writer.take() {
            self.runtime.block_on(async {
                let _ = writer.shutdown().await;
                tokio::task::yield_now().await;
            });
        }
    }
}
