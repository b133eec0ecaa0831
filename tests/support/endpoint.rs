//! Driving the HTTP endpoint in process, as a tower `Service` without a socket (the
//! allocation tests `alloc_tool_call` and `alloc_request_path`).

use http_body_util::Full;
use hyper::Request;
use hyper::body::Bytes;
use mcpwire::http::{HttpService, McpEndpoint};
use tower_service::Service;

/// A POST of `body` to `/mcp` with the headers every MCP client sends (Host, a JSON
/// Content-Type, an Accept listing both answers), then `headers`.
pub fn mcp_post(headers: &[(&str, &str)], body: Bytes) -> Request<Full<Bytes>> {
    let mut request = Request::post("/mcp")
        .header("Host", "localhost:8080")
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Full::new(body)).expect("a valid request")
}

/// Waits until `endpoint` is ready to take a request.
pub async fn ready<S: HttpService>(endpoint: &mut McpEndpoint<S>) {
    std::future::poll_fn(|cx| Service::<Request<Full<Bytes>>>::poll_ready(endpoint, cx))
        .await
        .expect("the endpoint is ready");
}
