// The JSON API of the server (docs/WEB.md): one function per kind of call. Every request
// names the page's language (Accept-Language), so that the server's errors come in it.

import {language} from "./i18n.js";

/** An answer that is not 2xx: `message` is the server's one line. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function failure(response) {
  let message = `HTTP ${response.status}`;
  try {
    const body = await response.json();
    if (body && body.error) message = body.error;
  } catch (_) { /* not JSON: the status says it */ }
  return new ApiError(message, response.status);
}

/** GET (no body) or POST a JSON body; the answer's JSON object. */
export async function api(path, body, options = {}) {
  const init = body === undefined ? {method: "GET", headers: {"accept-language": language()}}
    : {method: "POST", headers: {"content-type": "application/json", "accept-language": language()},
       body: JSON.stringify(body)};
  const response = await fetch(path, {...init, signal: options.signal, credentials: "same-origin"});
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** POST and read an answer of JSON lines, calling onLine with each object as it comes. */
export async function apiLines(path, body, onLine, signal) {
  const response = await fetch(path, {
    method: "POST", headers: {"content-type": "application/json", "accept-language": language()},
    body: JSON.stringify(body),
    signal, credentials: "same-origin",
  });
  if (!response.ok) throw await failure(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, {stream: true});
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) onLine(JSON.parse(line));
    }
  }
  if (buffer.trim()) onLine(JSON.parse(buffer));
}
