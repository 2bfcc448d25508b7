// Starts Swagger UI on /openapi.json. A file of its own, not an inline script, because the
// service's Content-Security-Policy (default-src 'self') forbids inline scripts (SPEC §2).
// BaseLayout without the standalone preset: that preset's top bar renders an inline <style>.
/* global SwaggerUIBundle */
window.addEventListener('load', () => {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
    displayOperationId: true,
    persistAuthorization: false,
  });
});
