module.exports = { ...require('../../jest.int.preset.cjs'), displayName: 'gateway:int', rootDir: __dirname };
