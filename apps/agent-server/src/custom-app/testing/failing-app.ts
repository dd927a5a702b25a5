// An `http.app` module for load-custom-app.spec.ts that fails at import, as one missing its configuration does.
throw new Error('no database configured');
