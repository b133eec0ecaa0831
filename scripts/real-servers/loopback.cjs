// loopback.cjs — preloaded (`node --require`) into Node servers that have no host option
// (server-everything's `streamableHttp` calls `app.listen(PORT)`, which binds every interface):
// a TCP listen that names no host binds 127.0.0.1 instead, so scripts/check-real-servers.sh never
// exposes a server beyond this machine. A listen that names a host or a socket path is untouched.
"use strict";
const net = require("node:net");

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    if (typeof args[1] !== "string") args.splice(1, 0, "127.0.0.1");
  } else if (first && typeof first === "object" && first.path === undefined && first.host === undefined) {
    args[0] = { ...first, host: "127.0.0.1" };
  }
  return listen.apply(this, args);
};
