import DOMPurify from 'dompurify';

/**
 * Notification text → safe markup: line breaks kept as <br>, only links (href) and line breaks survive;
 * links that are not http(s) or relative are dropped by DOMPurify's URI check.
 */
export function notificationHtml(message: string): string {
  const withBreaks = message.replace(/\r\n|\r|\n/g, '<br>');
  return DOMPurify.sanitize(withBreaks, {
    ALLOWED_TAGS: ['a', 'br'],
    ALLOWED_ATTR: ['href'],
    ALLOWED_URI_REGEXP: /^(?:https?:|\/(?!\/)|#)/i,
  });
}
