// The worker script of the Worker API (`context-assembly/worker-thread`: the browser or the Node script
// by condition), an entry of its own for a bundler that moves it: give its URL to
// `createWorkerEngine({ workerUrl })`. It exports nothing; importing it in a page does nothing useful.
export {};
