// The web build's model reader: a Web Worker (no Node) that the web extension host starts for an
// open attention file (web-files.ts), as the desktop's reader is a worker thread (model-editor/
// worker.ts). It is given the file's bytes (transferred) and answers one request at a time; what it
// holds and answers is FileAnswers', the desktop worker's too. Bundled as dist/web/scan-worker.js.
import { FileAnswers, type FileAnswer, type FileRequest } from '../../model-editor/file-answers.js';

interface WorkerScope {
  onmessage: ((event: { data: FileRequest }) => void) | null;
  postMessage(message: FileAnswer['response'], transfer: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;
const answers = new FileAnswers();
scope.onmessage = ({ data }) => {
  const { response, transfer } = answers.answer(data);
  scope.postMessage(response, transfer);
};
