// Calls to the Forma HTTP API on the page's own origin. Errors are problem documents (docs/api.md); they become
// ApiError with the problem's title and detail, so a view can show what went wrong.
import { t } from './i18n.js';

export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }
}

export class Api {
  constructor() {
    this.token = null;
  }

  async request(method, path, { body, headers = {}, token = this.token } = {}) {
    const init = { method, headers: { Accept: 'application/json', ...headers } };
    if (token) init.headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      throw new ApiError(0, { title: t('api.networkTitle'), detail: t('api.network') });
    }
    const text = await response.text();
    let json = null;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch (error) {
        json = null;
      }
    }
    if (!response.ok) throw new ApiError(response.status, json);
    return json;
  }

  get(path) {
    return this.request('GET', path);
  }

  post(path, body) {
    return this.request('POST', path, { body });
  }
}
