// Just enough of the browser's XMLHttpRequest for uploadthing/client's upload PUT, made of fetch,
// so the real client code runs in Node. The body goes out in slices with a progress event after
// each, as a browser reports upload progress.

type Listener = (event: { loaded: number; total: number; lengthComputable: boolean }) => void;

const SLICE = 64 * 1024;

export class FetchXMLHttpRequest {
  status = 0;
  statusText = '';
  response: unknown = null;
  responseType = '';
  withCredentials = false;
  private method = 'GET';
  private url = '';
  private readonly headers = new Headers();
  private readonly listeners = new Map<string, (() => void)[]>();
  private readonly progressListeners: Listener[] = [];
  private readonly controller = new AbortController();
  readonly upload = {
    addEventListener: (type: string, listener: Listener) => {
      if (type === 'progress') this.progressListeners.push(listener);
    },
  };

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value);
  }

  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  abort() {
    this.controller.abort();
  }

  private emit(type: string) {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }

  send(body: FormData | Blob | null) {
    this.transfer(body).then(
      () => this.emit('load'),
      () => this.emit(this.controller.signal.aborted ? 'abort' : 'error'),
    );
  }

  private async transfer(body: FormData | Blob | null) {
    // A Request encodes the multipart body and its boundary exactly as fetch would send it.
    const encoded = new Request(this.url, { method: this.method, body, headers: this.headers });
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    let sent = 0;
    const progress = this.progressListeners;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= bytes.length) return controller.close();
        const slice = bytes.subarray(sent, sent + SLICE);
        controller.enqueue(slice);
        sent += slice.length;
        for (const listener of progress) listener({ loaded: sent, total: bytes.length, lengthComputable: true });
      },
    });
    const response = await fetch(this.url, {
      method: this.method,
      headers: encoded.headers,
      body: stream,
      duplex: 'half',
      signal: this.controller.signal,
    } as RequestInit);
    this.status = response.status;
    this.statusText = response.statusText;
    const text = await response.text();
    if (this.responseType === 'json') {
      try {
        this.response = JSON.parse(text);
      } catch {
        this.response = null;
      }
    } else this.response = text;
  }
}
