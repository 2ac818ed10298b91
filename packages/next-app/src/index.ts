export { nextPlatform, type Platform } from './platform';
export { documentFileResponse, type FileDownload } from './file-response';
