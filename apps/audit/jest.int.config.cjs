module.exports = { ...require('../../jest.int.preset.cjs'), displayName: 'audit:int', rootDir: __dirname };
