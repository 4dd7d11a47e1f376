// Installers for Linux (AppImage, deb), macOS (dmg) and Windows (nsis). `npm run dist` needs a machine that can
// download Electron; scripts/check-pack.mjs packs the unpacked app against a stub Electron here.
/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'dev.pixelfleet.app',
  productName: 'Pixelfleet',
  executableName: 'pixelfleet',
  copyright: 'Pixelfleet contributors',
  directories: { output: 'dist' },
  files: ['out/**/*', 'package.json', '!**/*.map', '!out/**/*.test.*'],
  asar: true,
  npmRebuild: false,
  extraMetadata: { main: 'out/main/index.js' },
  linux: { target: ['AppImage', 'deb'], category: 'Development', maintainer: 'Pixelfleet <pixelfleet@localhost>' },
  deb: { depends: ['libnss3', 'libgtk-3-0'] },
  mac: { target: 'dmg', category: 'public.app-category.developer-tools' },
  win: { target: 'nsis' },
  nsis: { oneClick: false, perMachine: false },
};
