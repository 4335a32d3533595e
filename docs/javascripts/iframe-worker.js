/*
 * Search for the site opened from the file system (build/site/index.html).
 *
 * The theme's search runs in a web worker, and browsers start no worker for
 * a page opened from a file. On such a page, and only there, this replaces
 * `Worker` with a stand-in that runs the worker's script in a hidden frame
 * of the page and passes the messages both ways, as a worker would.
 *
 * It is listed in mkdocs.yml under extra.polyfills, so that it is loaded
 * before the theme's scripts; the theme's offline plugin, which writes the
 * search index as a script such a page can load, adds a copy of this kind of
 * stand-in from the network unless one named "iframe-worker" is listed.
 */
(function () {
  "use strict";
  if (location.protocol !== "file:") {
    return;
  }

  class FrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.waiting = [];
      this.started = false;
      this.frame = document.createElement("iframe");
      this.frame.style.display = "none";
      (document.body || document.documentElement).appendChild(this.frame);
      const scope = this.frame.contentWindow;
      this.scope = scope;
      // What the script posts reaches the page later, as a worker's message does.
      scope.postMessage = (data) => {
        setTimeout(() => this.receive(data));
      };
      scope.importScripts = (...urls) => {
        throw new Error(`a worker opened from a file cannot import ${urls.join(", ")}`);
      };
      const script = scope.document.createElement("script");
      script.src = new URL(url, location.href).href;
      script.onload = () => {
        this.started = true;
        for (const data of this.waiting.splice(0)) {
          this.deliver(data);
        }
      };
      scope.document.head.appendChild(script);
    }

    receive(data) {
      const event = new MessageEvent("message", { data });
      this.dispatchEvent(event);
      if (typeof this.onmessage === "function") {
        this.onmessage(event);
      }
    }

    deliver(data) {
      this.scope.dispatchEvent(new this.scope.MessageEvent("message", { data }));
    }

    postMessage(data) {
      if (this.started) {
        setTimeout(() => this.deliver(data));
      } else {
        this.waiting.push(data);
      }
    }

    terminate() {
      this.frame.remove();
    }
  }

  window.Worker = FrameWorker;
})();
