module.exports = { ...require('../../jest.int.preset.cjs'), displayName: 'billing:int', rootDir: __dirname };
