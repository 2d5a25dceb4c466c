// Module hooks for node: the app's modules import each other by the paths zkpin-server serves
// them at (/app/*.js from web/app, /js/*.js from web), so a test can load web/app/client.js as
// the browser does. Registered with `module.register` by the tests that load app modules.

const WEB = new URL("../", import.meta.url);

export async function resolve(specifier, context, next) {
  if (specifier.startsWith("/app/")) return { url: new URL("app/" + specifier.slice(5), WEB).href, shortCircuit: true };
  if (specifier.startsWith("/js/")) return { url: new URL(specifier.slice(4), WEB).href, shortCircuit: true };
  return next(specifier, context);
}
