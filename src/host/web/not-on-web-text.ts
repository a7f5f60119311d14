// The words the web build says where a feature needs a disk or Node: shared by the extension host
// (not-on-web.ts) and the analysis worker, which has no VS Code API to show a message with.
export const NOT_ON_THE_WEB = 'is not available in VS Code for the Web yet: open this folder in VS Code on the desktop for it';
