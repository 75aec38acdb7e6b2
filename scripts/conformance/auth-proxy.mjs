// A loopback reverse proxy for the conformance run: the suite has no option to send a header,
// and avenir-mcp's HTTP transport refuses every request without `Authorization: Bearer <token>`.
// This adds that one header and passes everything else through unchanged, both ways: method,
// path, the request's raw headers (Host and Origin too, so the server's own Host/Origin guards
// are what the suite measures), bodies, and streamed (SSE) answers.
//
//   node auth-proxy.mjs <upstream-port> <port-file>
// The token is read from AVENIR_MCP_HTTP_TOKEN; the proxy writes the port it listens on (a free
// loopback port) to <port-file> once it is ready.
import http from 'node:http';
import { writeFileSync } from 'node:fs';

const [upstreamPort, portFile] = process.argv.slice(2);
const token = process.env.AVENIR_MCP_HTTP_TOKEN;
if (!upstreamPort || !portFile || !token) {
  console.error('usage: AVENIR_MCP_HTTP_TOKEN=… node auth-proxy.mjs <upstream-port> <port-file>');
  process.exit(2);
}

const server = http.createServer((req, res) => {
  const headers = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() !== 'authorization') {
      headers.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
    }
  }
  headers.push('Authorization', `Bearer ${token}`);
  const upstream = http.request(
    { host: '127.0.0.1', port: Number(upstreamPort), method: req.method, path: req.url, headers, agent: false },
    (answer) => {
      res.writeHead(answer.statusCode, answer.statusMessage, answer.rawHeaders);
      res.flushHeaders();
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    },
  );
  upstream.on('error', (error) => {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`auth-proxy: ${error.message}`);
    } else {
      res.destroy();
    }
  });
  // the client went away (closed an SSE stream, timed out): close the upstream request too
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
});

server.listen(0, '127.0.0.1', () => {
  writeFileSync(portFile, String(server.address().port));
});
