module.exports = { ...require('../../jest.int.preset.cjs'), displayName: 'wallet:int', rootDir: __dirname };
